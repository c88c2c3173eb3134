// Browser-test helpers over the shared server of global-setup.ts: users created through the public
// API (register → admin approves), a UI login, and the test clock. Every test uses unique emails,
// since all browser test files share one server and one database.
import { inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { TASK_STATUSES, type Role, type TaskStatus, type View } from '@shared/enums';
import type { AuthResponse, SessionUser, Task } from '@shared/schemas';
import { STATUS_LABELS, UI_BOARD, UI_HEADER, UI_LOGIN, VIEW_LABELS } from '@shared/labels';
import { ADMIN } from './global-setup';

export { ADMIN };
export const PASSWORD = 'contraseña-prueba-1';

let seq = 0;
/** A fresh email (the shared database never sees the same one twice). */
export const uniqueEmail = (tag = 'user'): string =>
  `${tag}-${Date.now().toString(36)}-${(seq++).toString(36)}@browser.test`;

/** A JSON call to the API; throws with the status and detail when it fails. */
export async function apiCall<T>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; baseUrl?: string } = {},
): Promise<T> {
  const res = await fetch(`${opts.baseUrl ?? inject('baseUrl')}/api${path}`, {
    method,
    headers: {
      ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function loginApi(email: string, password: string, baseUrl?: string): Promise<string> {
  const res = await apiCall<AuthResponse>('POST', '/auth/login', { body: { email, password }, baseUrl });
  if (!res.access_token) throw new Error(`login of ${email} gave no token`);
  return res.access_token;
}

export const adminToken = (baseUrl?: string): Promise<string> =>
  loginApi(ADMIN.email, ADMIN.password, baseUrl);

export interface TestAccount extends SessionUser {
  password: string;
}

/** Registers an account through the API (pending, unless `approve` — the default). */
export async function createUser(
  role: Role,
  opts: { name?: string; approve?: boolean; baseUrl?: string } = {},
): Promise<TestAccount> {
  const email = uniqueEmail(role);
  const name = opts.name ?? `${role[0].toUpperCase()}${role.slice(1)} ${email.split('-')[1]}`;
  const { user } = await apiCall<AuthResponse>('POST', '/auth/register', {
    body: { email, password: PASSWORD, name, role },
    baseUrl: opts.baseUrl,
  });
  if (opts.approve ?? true) {
    await apiCall('POST', '/admin/approve-user', {
      token: await adminToken(opts.baseUrl),
      body: { user_id: user.id, approved: true },
      baseUrl: opts.baseUrl,
    });
  }
  return { ...user, password: PASSWORD };
}

/** Fills and sends the login screen the page shows. */
export async function submitLogin(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.getByLabel(UI_LOGIN.email).fill(account.email);
  await page.getByLabel(UI_LOGIN.password).fill(account.password);
  await page.getByRole('button', { name: UI_LOGIN.submitLogin, exact: true }).click();
}

/** Logs in through the login screen and waits for the dashboard. */
export async function loginUi(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, account);
  await page.waitForURL('**/dashboard');
}

/** Switches the dashboard to a view with its header button. */
export async function showView(page: Page, view: View): Promise<void> {
  await page
    .getByRole('navigation', { name: UI_HEADER.nav })
    .getByRole('button', { name: VIEW_LABELS[view], exact: true })
    .click();
}

/** Moves the server clock forward (TEST_CLOCK=1 only: POST /api/test/clock). */
export const advanceClock = (ms: number, baseUrl?: string): Promise<{ epoch_ms: number }> =>
  apiCall('POST', '/test/clock', { body: { advance_ms: ms }, baseUrl });

/**
 * Deletes the open tasks a test file left on the shared board whose trailer or places carry `tag`: every
 * browser test file shares one database, and the wall screen's test pages through the whole pool.
 */
export async function deleteOpenTasksTagged(tag: string): Promise<void> {
  const token = await adminToken();
  const tasks = await apiCall<
    { id: string; status: string; trailer_id: string; origin: string; destination: string }[]
  >('GET', '/tasks', { token });
  for (const t of tasks)
    if (
      t.status !== 'finalizada' &&
      [t.trailer_id, t.origin, t.destination].some((s) => s.toUpperCase().includes(tag.toUpperCase()))
    )
      await apiCall('DELETE', `/tasks/${t.id}`, { token });
}

/**
 * A board column's card, mounted: a column mounts its first cards and the next ones as it scrolls
 * (KanbanColumn's paging), and the pool is in the order of urgency (CONTRACT §20), so a fresh or held
 * task may sit below other runs' cards, and move when it changes. Scrolls the column down until every
 * card of it is mounted (a column never unmounts what it paged in) and the card is there.
 */
export async function cardInColumn(page: Page, status: string, name: RegExp): Promise<Locator> {
  const column = page.getByTestId(`column-${status}`);
  const cards = column.getByRole('article');
  const card = column.getByRole('article', { name });
  const until = Date.now() + 20_000;
  const counter = column.getByTestId('column-count'); // a phone's tabbed column has none: one page
  const allMounted = async () =>
    (await counter.count()) === 0 || (await cards.count()) >= Number(await counter.textContent());
  while (Date.now() < until && ((await card.count()) === 0 || !(await allMounted()))) {
    if ((await cards.count()) > 0) await cards.last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(150);
  }
  return card;
}

/** The board's announcement of a step of a drag (the library's live region), once it has taken. */
const dragStep = (page: Page, text: string) =>
  page.locator('[aria-live="assertive"]', { hasText: text }).waitFor({ state: 'attached' });
/** What the announcement says before the card's name: the test does not know how the board names it. */
const lifted = (page: Page) => dragStep(page, UI_BOARD.dnd.lifted('\n', '').split('\n')[0]!);
/** What the announcement says before the card's position in the column. */
const over = (page: Page, status: TaskStatus) =>
  dragStep(page, UI_BOARD.dnd.over(STATUS_LABELS[status], 1).replace(/\d+$/, ''));

/**
 * The keyboard drag of @hello-pangea/dnd, rightwards: Space lifts the card, each ArrowRight moves it
 * one column, Space drops it. Each key waits for the announcement of the step before: on a loaded
 * machine a key pressed before the lift or the move took is lost, and the card drops back.
 */
export async function keyboardDrag(
  page: Page,
  task: Pick<Task, 'id' | 'status'>,
  to: TaskStatus,
): Promise<void> {
  await page.locator(`[data-rfd-drag-handle-draggable-id="${task.id}"]`).focus();
  await page.keyboard.press('Space');
  await lifted(page);
  for (const status of TASK_STATUSES.slice(
    TASK_STATUSES.indexOf(task.status) + 1,
    TASK_STATUSES.indexOf(to) + 1,
  )) {
    await page.keyboard.press('ArrowRight');
    await over(page, status);
  }
  await page.keyboard.press('Space');
}

/**
 * The mouse drag (ENVIRONMENT.md): press, move past the library's threshold, and once the lift took move
 * in steps a little past the column's centre; released only once the library says it is over it.
 */
export async function mouseDrag(page: Page, card: Locator, to: TaskStatus): Promise<void> {
  const a = (await card.boundingBox())!;
  const b = (await page.getByTestId(`column-${to}`).boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 16);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + 24, { steps: 4 });
  await lifted(page);
  await page.mouse.move(b.x + b.width / 2 + 10, b.y + 80, { steps: 20 });
  await over(page, to);
  await page.mouse.up();
}

export interface Watch {
  violations: string[];
  dialogs: string[];
}
/** Records CSP violations (console and DOM event) and any alert/confirm/prompt the page opens. */
export async function watch(page: Page): Promise<Watch> {
  const w: Watch = { violations: [], dialogs: [] };
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) w.violations.push(msg.text());
  });
  page.on('dialog', (dialog) => {
    w.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.exposeFunction('__cspViolation', (d: string) => w.violations.push(d));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation: (d: string) => void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      ),
    );
  });
  return w;
}
