// CONTRACT §14: a login answered `password_change_required` shows the change-password form; nothing
// of the session (stored token, socket, dashboard) starts until the change answers like a login.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { toast } from 'sonner';
import { ERR, TOAST, UI_CHANGE_PASSWORD, UI_LOGIN } from '@shared/labels';
import { PASSWORD_CONTROL_MSG, PASSWORD_LENGTH_MSG } from '@shared/schemas';
import { json, mockFetch, sentBody } from '../../test/http';
import type { FakeSocket } from '../../test/socket';
import { useSession } from '../../stores/session';

vi.setConfig({ testTimeout: 20_000 });

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../Dashboard/DashboardPage', () => ({ DashboardPage: () => <p>PANEL</p> }));
const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', async () => {
  const { FakeSocket } = await import('../../test/socket');
  return {
    io: (opts: { auth: FakeSocket['auth'] }) => {
      const s = new FakeSocket(opts.auth);
      sockets.push(s);
      return s;
    },
  };
});

const { App } = await import('../../App');
const { initRealtime } = await import('../../socket');

const T = UI_CHANGE_PASSWORD;
const TEMP = 'Tmp-4421-xQ';
const NEW = 'nueva-clave-segura';
const user = { id: 'u1', name: 'Luis Gómez', email: 'luis@patio.es', role: 'conductor' as const };
const mustChange = { status: 'password_change_required', access_token: 'tok-change-only', user };
const approved = { status: 'approved', access_token: 'tok-full', user };

type Answer = (path: string, init: RequestInit) => Response;
let changeAnswer: Answer;
let fetch: ReturnType<typeof mockFetch>;
let stop: () => void = () => {};

const changeCalls = () => fetch.mock.calls.filter(([url]) => String(url).endsWith('/auth/change-password'));
const authHeader = (n: number) => (changeCalls()[n][1]?.headers as Record<string, string>).Authorization;

async function loginWithTemporary() {
  await userEvent.type(await screen.findByLabelText(UI_LOGIN.email), 'luis@patio.es');
  await userEvent.type(screen.getByLabelText(UI_LOGIN.password), TEMP);
  await userEvent.click(screen.getByRole('button', { name: UI_LOGIN.submitLogin }));
  await screen.findByRole('heading', { name: T.title });
}

async function setNew(password: string, repeat = password) {
  await userEvent.clear(screen.getByLabelText(T.newPassword));
  if (password) await userEvent.type(screen.getByLabelText(T.newPassword), password);
  await userEvent.clear(screen.getByLabelText(T.repeat));
  if (repeat) await userEvent.type(screen.getByLabelText(T.repeat), repeat);
  await userEvent.click(screen.getByRole('button', { name: T.submit }));
}

beforeEach(() => {
  localStorage.clear();
  sockets.length = 0;
  useSession.setState({ token: null, user: null, status: 'anonymous', passwordChange: null });
  changeAnswer = () => json(200, approved);
  fetch = mockFetch((path, init) => {
    if (path === '/auth/login') return json(200, mustChange);
    if (path === '/auth/change-password') return changeAnswer(path, init);
    return json(200, {});
  });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  stop = initRealtime();
  render(
    <MemoryRouter initialEntries={['/login']}>
      <App />
    </MemoryRouter>,
  );
});
afterEach(() => {
  stop();
  cleanup();
  vi.unstubAllGlobals();
});

describe('login that must change its password (CONTRACT §14)', () => {
  it('shows the change form instead of starting the session: no stored token, no socket, no dashboard', async () => {
    await loginWithTemporary();
    expect(screen.getByText(T.message)).toBeInTheDocument();
    expect(screen.getByText('luis@patio.es')).toBeInTheDocument();
    // The current password is the temporary one just typed: not asked again.
    expect(screen.queryByLabelText(UI_LOGIN.password)).not.toBeInTheDocument();
    expect(document.querySelectorAll('input[type="password"]')).toHaveLength(2);
    expect(screen.getByLabelText(T.newPassword)).toHaveFocus();

    expect(useSession.getState().status).toBe('anonymous');
    expect(localStorage.getItem('torre.token')).toBeNull();
    expect(sockets).toHaveLength(0);
    expect(screen.queryByText('PANEL')).not.toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalledWith(TOAST.loginOk);
  });

  it('checks the shared password rules and the repeat before sending anything', async () => {
    await loginWithTemporary();
    await setNew('corta');
    expect(screen.getByText(PASSWORD_LENGTH_MSG)).toBeInTheDocument();
    await setNew('x'.repeat(73));
    expect(screen.getByText(PASSWORD_LENGTH_MSG)).toBeInTheDocument();
    // 8 characters but 80 bytes of UTF-8: bcrypt would ignore the tail.
    await setNew('ñ'.repeat(40));
    expect(screen.getByText(PASSWORD_LENGTH_MSG)).toBeInTheDocument();
    await setNew('         ');
    expect(screen.getByText(PASSWORD_LENGTH_MSG)).toBeInTheDocument();
    await setNew('abc\tdefgh');
    expect(screen.getByText(PASSWORD_CONTROL_MSG)).toBeInTheDocument();
    await setNew(TEMP);
    expect(screen.getByText(ERR.samePassword)).toBeInTheDocument();
    await setNew(NEW, `${NEW}!`);
    expect(screen.getByText(T.mismatch)).toBeInTheDocument();
    expect(screen.getByLabelText(T.repeat)).toHaveAttribute('aria-invalid', 'true');
    expect(changeCalls()).toHaveLength(0);
  });

  it('sends the temporary and the new password with the change-only token, then logs in as usual', async () => {
    await loginWithTemporary();
    await setNew(NEW);

    expect(changeCalls()).toHaveLength(1);
    expect(changeCalls()[0][1]?.method).toBe('POST');
    expect(authHeader(0)).toBe('Bearer tok-change-only');
    expect(sentBody(fetch, fetch.mock.calls.indexOf(changeCalls()[0]))).toEqual({
      current_password: TEMP,
      new_password: NEW,
    });

    expect(await screen.findByText('PANEL')).toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', token: 'tok-full', user });
    expect(useSession.getState().passwordChange).toBeNull();
    expect(localStorage.getItem('torre.token')).toBe('tok-full');
    expect(toast.success).toHaveBeenCalledWith(TOAST.passwordChanged);
    // The socket starts now, with the full token.
    expect(sockets).toHaveLength(1);
    expect(sockets[0].handshakeToken()).toBe('tok-full');
  });

  it("shows the server's 400 detail on the form and lets the user try again", async () => {
    changeAnswer = () => json(400, { detail: PASSWORD_LENGTH_MSG });
    await loginWithTemporary();
    await setNew(NEW);
    expect(await screen.findByRole('alert')).toHaveTextContent(PASSWORD_LENGTH_MSG);
    expect(useSession.getState().status).toBe('anonymous');
    expect(screen.getByRole('button', { name: T.submit })).toBeEnabled();

    changeAnswer = () => json(200, approved);
    await setNew(`${NEW}-2`);
    expect(await screen.findByText('PANEL')).toBeInTheDocument();
    expect(authHeader(1)).toBe('Bearer tok-change-only');
  });

  it('a change-only token revoked meanwhile (401) goes back to the login form, saying why', async () => {
    changeAnswer = () => json(401, { detail: ERR.sessionRevoked });
    await loginWithTemporary();
    await setNew(NEW);
    expect(toast.error).toHaveBeenCalledWith(ERR.sessionRevoked);
    expect(await screen.findByLabelText(UI_LOGIN.password)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: T.title })).not.toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', passwordChange: null });
  });

  it('Volver al inicio de sesión forgets the pending change', async () => {
    await loginWithTemporary();
    await userEvent.click(screen.getByRole('button', { name: T.back }));
    expect(screen.getByLabelText(UI_LOGIN.password)).toBeInTheDocument();
    expect(useSession.getState().passwordChange).toBeNull();
    expect(changeCalls()).toHaveLength(0);
  });

  it('an approved login still goes straight to the dashboard', async () => {
    fetch.mockImplementation((input) =>
      Promise.resolve(String(input).endsWith('/auth/login') ? json(200, approved) : json(200, {})),
    );
    await userEvent.type(await screen.findByLabelText(UI_LOGIN.email), 'luis@patio.es');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'clave-de-siempre');
    await userEvent.click(screen.getByRole('button', { name: UI_LOGIN.submitLogin }));
    expect(await screen.findByText('PANEL')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(TOAST.loginOk);
    expect(sockets).toHaveLength(1);
  });
});
