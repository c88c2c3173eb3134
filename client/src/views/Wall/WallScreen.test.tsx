// The wall screen in jsdom (CONTRACT §15): the pool by urgency and En Proceso longest running first, the
// paging (page marks, `+N más`, a new page every 10 s with fake timers) over a stubbed layout, held and
// offline cards, and Esc back to /dashboard.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { DashboardStats, RankingEntry, Task } from '@shared/schemas';
import { STATUS_LABELS, UI_ATTENTION, UI_WALL, UI_BOARD } from '@shared/labels';
import { WALL_PAGE_MS } from '@shared/constants';
import { json, mockFetch } from '../../test/http';
import { useDrivers } from '../../stores/drivers';
import { useSession } from '../../stores/session';
import { useTasks } from '../../stores/tasks';
import { pageStarts } from './paging';
import { WALL_NOW, wallTask } from './test-fixtures';
import { WallScreen } from './WallScreen';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const NOW = WALL_NOW;
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

const STATS: DashboardStats = {
  bolsa_trabajo: 0,
  en_proceso: 0,
  finalizada: 0,
  online_drivers: 0,
  available_drivers: 0,
  busy_drivers: 0,
  pending_users: 0,
  workload_alert: {
    status: 'normal',
    since: minutesAgo(60),
    message: 'La carga de trabajo está equilibrada',
    severity: 0,
    recommendations: [],
    metrics: { pending_tasks: 0, available_drivers: 0, busy_drivers: 0, driver_utilization: 0 },
  },
};

function serve(tasks: Task[], rankings: RankingEntry[] = []) {
  mockFetch((path) => {
    if (path === '/tasks') return json(200, tasks);
    if (path === '/server-time') return json(200, { epoch_ms: Date.now() });
    if (path === '/dashboard/stats') return json(200, STATS);
    if (path === '/dashboard/online-drivers') return json(200, []);
    if (path === '/dashboard/rankings') return json(200, rankings);
    return json(404, { detail: 'no' });
  });
}

function renderWall() {
  return render(
    <MemoryRouter initialEntries={['/pantalla']}>
      <Routes>
        <Route path="/pantalla" element={<WallScreen />} />
        <Route path="/dashboard" element={<p>tablero normal</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

/** Lets the loads answer (fetch → store → render) under fake timers. */
async function settle() {
  for (let i = 0; i < 5; i++) await act(async () => vi.advanceTimersByTimeAsync(0));
}

const column = (status: 'bolsa_trabajo' | 'en_proceso') =>
  screen.getByRole('region', { name: STATUS_LABELS[status] });
/** The page on screen (the column also holds an unseen copy of every card, to measure pages from). */
const shown = (name: string) => within(within(screen.getByRole('region', { name })).getByTestId('wall-page'));
const shownIds = (status: 'bolsa_trabajo' | 'en_proceso') =>
  shown(STATUS_LABELS[status])
    .queryAllByTestId('wall-card')
    .map((c) => c.getAttribute('data-task-id'));

/**
 * jsdom lays nothing out: every card is 100 px high with 10 px between them, one per row, and a column's
 * viewport is 350 px high, so three fit on a page.
 */
function stubLayout() {
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.wallIndex !== undefined ? 100 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetTop', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.wallIndex !== undefined ? Number(this.dataset.wallIndex) * 110 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.wallViewport !== undefined ? 350 : 0;
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  useTasks.getState().reset();
  useDrivers.setState({ online: [], rankings: [], loaded: false });
  useSession.setState({
    token: 'tok',
    user: { id: 'a1', name: 'Ana Admin', email: 'ana@patio.es', role: 'admin' },
    status: 'authenticated',
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('pageStarts', () => {
  const rows = (...heights: number[]) => {
    let top = 0;
    return heights.map((height) => {
      const box = { top, height };
      top += height + 10;
      return box;
    });
  };
  it('packs whole rows into pages of the column height, at least one row a page', () => {
    expect(pageStarts(rows(100, 100, 100, 100, 100), 350)).toEqual([0, 3]);
    expect(pageStarts(rows(100, 400, 100), 350)).toEqual([0, 1, 2]);
    expect(pageStarts([], 350)).toEqual([0]);
    // Nothing laid out: one page with everything.
    expect(pageStarts(rows(0, 0, 0), 0)).toEqual([0]);
  });
  it('keeps the cards of one grid row together', () => {
    const two = [
      { top: 0, height: 100 },
      { top: 0, height: 140 },
      { top: 150, height: 100 },
      { top: 150, height: 100 },
      { top: 260, height: 100 },
    ];
    expect(pageStarts(two, 300)).toEqual([0, 4]);
  });
});

describe('wall screen', () => {
  it('shows the pool by urgency (held last, high first, then oldest first) and En Proceso longest running first', async () => {
    const held = wallTask({
      priority: 'high',
      on_hold: true,
      hold_reason: 'Remolque dañado',
      created_at: minutesAgo(90),
    });
    const newNormal = wallTask({ created_at: minutesAgo(2) });
    const oldLow = wallTask({ priority: 'low', created_at: minutesAgo(80) });
    const newHigh = wallTask({ priority: 'high', created_at: minutesAgo(3) });
    const oldNormal = wallTask({ created_at: minutesAgo(40) });
    const oldHigh = wallTask({ priority: 'high', created_at: minutesAgo(20) });
    const running = (since: number, name: string) =>
      wallTask({
        status: 'en_proceso',
        status_since: minutesAgo(since),
        assigned_at: minutesAgo(since),
        assigned_to: `d-${name}`,
        assigned_to_name: name,
        assignee_online: true,
        created_at: minutesAgo(since + 1),
      });
    const short = running(4, 'Ana Ruiz');
    const long = running(50, 'Jesús Jiménez de la Fuente Martínez');
    const mid = running(12, 'Pablo Serrano');
    serve([held, newNormal, oldLow, newHigh, oldNormal, oldHigh, short, long, mid]);
    renderWall();
    await settle();

    expect(shownIds('bolsa_trabajo')).toEqual(
      // CONTRACT §20 without deadlines: high first, then oldest first (low is no step of the rule).
      [oldHigh, newHigh, oldLow, oldNormal, newNormal, held].map((t) => t.id),
    );
    expect(shownIds('en_proceso')).toEqual([long, mid, short].map((t) => t.id));
    // One page: no marks.
    expect(within(column('bolsa_trabajo')).queryByTestId('wall-page-mark')).toBeNull();
    // The held card says why; the driver's full name is there, whole.
    const heldCard = within(column('bolsa_trabajo')).getByRole('article', {
      name: `Mover ${held.trailer_id}`,
    });
    expect(within(heldCard).getByText(UI_ATTENTION.held('Remolque dañado'))).toBeInTheDocument();
    expect(
      shown(STATUS_LABELS.en_proceso).getByText('Jesús Jiménez de la Fuente Martínez'),
    ).toBeInTheDocument();
  });

  it('orders the pool by deadline (CONTRACT §20) and again as the clock moves', async () => {
    const inMinutes = (m: number) => new Date(NOW + m * 60_000).toISOString();
    const high = wallTask({ priority: 'high', created_at: minutesAgo(30) });
    const later = wallTask({ due_at: inMinutes(90), created_at: minutesAgo(2) });
    const overdue = wallTask({ due_at: inMinutes(-5), created_at: minutesAgo(1) });
    serve([high, later, overdue]);
    renderWall();
    await settle();
    expect(shownIds('bolsa_trabajo')).toEqual([overdue, high, later].map((t) => t.id));
    // 31 minutes on, the 90-minute deadline is within the hour: before high priority.
    await act(async () => vi.advanceTimersByTimeAsync(31 * 60_000));
    expect(shownIds('bolsa_trabajo')).toEqual([overdue, later, high].map((t) => t.id));
  });

  it('shows each deadline and colours the waiting time: none while fresh, amber past 20 min, red past 40', async () => {
    const inMinutes = (m: number) => new Date(NOW + m * 60_000).toISOString();
    const fresh = wallTask({ created_at: minutesAgo(3), status_since: minutesAgo(3) });
    const waiting = wallTask({ created_at: minutesAgo(25), status_since: minutesAgo(25) });
    const stale = wallTask({ created_at: minutesAgo(45), status_since: minutesAgo(45) });
    const soon = wallTask({
      due_at: inMinutes(25.5),
      created_at: minutesAgo(1),
      status_since: minutesAgo(1),
    });
    const overdue = wallTask({
      due_at: inMinutes(-12.5),
      created_at: minutesAgo(1),
      status_since: minutesAgo(1),
    });
    serve([fresh, waiting, stale, soon, overdue]);
    renderWall();
    await settle();
    const card = (t: Task) =>
      shown(STATUS_LABELS.bolsa_trabajo).getByRole('article', { name: `Mover ${t.trailer_id}` });
    const time = (t: Task) => within(card(t)).getByTestId('wall-time');
    expect(time(fresh)).toHaveAttribute('data-tone', 'neutral');
    expect(time(waiting)).toHaveAttribute('data-tone', 'amber');
    expect(time(stale)).toHaveAttribute('data-tone', 'red');
    expect(within(card(fresh)).queryByTestId('wall-deadline')).toBeNull();
    const deadline = (t: Task) => within(card(t)).getByTestId('wall-deadline');
    expect(deadline(soon)).toHaveTextContent('Faltan 25 min');
    expect(deadline(soon)).toHaveAttribute('data-tone', 'amber');
    expect(deadline(overdue)).toHaveTextContent('Retrasada 12 min');
    expect(deadline(overdue)).toHaveAttribute('data-tone', 'red');
    // Wall sizes: 18 px or more (text-xl is 20 px).
    expect(deadline(soon).className).toContain('text-xl');
  });

  it('pages a column that does not fit every 10 s with page marks and +N más', async () => {
    stubLayout();
    // Eight normal pool tasks, oldest first: W-a … W-h.
    const tasks = Array.from({ length: 8 }, (_, i) => wallTask({ created_at: minutesAgo(60 - i) }));
    serve(tasks);
    renderWall();
    await settle();

    const pool = () => column('bolsa_trabajo');
    const mark = () => within(pool()).getByTestId('wall-page-mark');
    const more = () => within(pool()).getByTestId('wall-more');
    expect(mark()).toHaveTextContent(UI_WALL.page(1, 3));
    expect(more()).toHaveTextContent(UI_WALL.more(5));
    expect(shownIds('bolsa_trabajo')).toEqual(tasks.slice(0, 3).map((t) => t.id));

    await act(async () => vi.advanceTimersByTimeAsync(WALL_PAGE_MS - 100));
    expect(mark()).toHaveTextContent('1/3');

    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(mark()).toHaveTextContent('2/3');
    expect(more()).toHaveTextContent('+5 más');
    expect(shownIds('bolsa_trabajo')).toEqual(tasks.slice(3, 6).map((t) => t.id));

    await act(async () => vi.advanceTimersByTimeAsync(WALL_PAGE_MS));
    expect(mark()).toHaveTextContent('3/3');
    expect(more()).toHaveTextContent('+6 más');
    expect(shownIds('bolsa_trabajo')).toEqual(tasks.slice(6).map((t) => t.id));

    await act(async () => vi.advanceTimersByTimeAsync(WALL_PAGE_MS));
    expect(mark()).toHaveTextContent('1/3');
    expect(shownIds('bolsa_trabajo')).toEqual(tasks.slice(0, 3).map((t) => t.id));
  });

  it('shows an offline driver on the card, from the presence pushes too', async () => {
    const task = wallTask({
      status: 'en_proceso',
      status_since: minutesAgo(20),
      assigned_at: minutesAgo(20),
      assigned_to: 'd1',
      assigned_to_name: 'Luis Gómez',
      assignee_online: true,
    });
    serve([task], [{ id: 'd1', name: 'Luis Gómez', is_online: true, movements_count: 3 }]);
    renderWall();
    await settle();
    const card = () =>
      shown(STATUS_LABELS.en_proceso).getByRole('article', { name: `Mover ${task.trailer_id}` });
    expect(within(card()).queryByText(/Sin conexión/)).toBeNull();

    // drivers:updated says he went offline: the card shows it, counting from then.
    act(() =>
      useDrivers
        .getState()
        .received([], [{ id: 'd1', name: 'Luis Gómez', is_online: false, movements_count: 3 }]),
    );
    expect(within(card()).getByText(UI_BOARD.card.offlineSince('0 s'))).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTimeAsync(6 * 60_000));
    expect(within(card()).getByText(UI_BOARD.card.offlineSince('6 min'))).toBeInTheDocument();
    // And the Attention column lists him (offline more than 5 minutes).
    expect(shown(UI_ATTENTION.title).getByText(UI_ATTENTION.driverOffline('6 min'))).toBeInTheDocument();
  });

  it('Esc goes back to /dashboard', async () => {
    serve([]);
    renderWall();
    await settle();
    expect(screen.getByRole('main', { name: UI_WALL.label })).toBeInTheDocument();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.getByText('tablero normal')).toBeInTheDocument();
  });
});
