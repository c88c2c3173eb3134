// The dashboard as a control room uses it (CONTRACT §15): the workload alert is steady (a level shows
// once it has held 60 s, on the server's `since`) and sits beside the board, never above it; pending
// users are one line, not a banner each.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { AlertStatus } from '@shared/enums';
import type { DashboardStats, Notification, PendingUser, WorkloadAlert } from '@shared/schemas';
import { ALERT_HYSTERESIS_MS } from '@shared/constants';
import { UI_BOARD } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { useNotifications } from '../../stores/notifications';
import { usePendingUsers } from '../../stores/pendingUsers';
import { useSession } from '../../stores/session';
import { useStats } from '../../stores/stats';
import { useTimeclock } from '../../stores/timeclock';
import { useUi } from '../../stores/ui';
import { BoardView } from './BoardView';
import { WorkloadAlertCard } from './WorkloadAlertCard';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const SEVERITY = { normal: 0, warning: 1, critical: 2 } as const;

function alert(status: AlertStatus, sinceMs: number, pending = 4): WorkloadAlert {
  return {
    status,
    since: new Date(sinceMs).toISOString(),
    severity: SEVERITY[status],
    message: `Mensaje ${status}`,
    recommendations: status === 'normal' ? [] : ['Asigna a mano las tareas de prioridad alta'],
    metrics: { pending_tasks: pending, available_drivers: 0, busy_drivers: 3, driver_utilization: 100 },
  };
}

function stats(workload_alert: WorkloadAlert, pending_users = 0): DashboardStats {
  return {
    bolsa_trabajo: workload_alert.metrics.pending_tasks,
    en_proceso: 3,
    finalizada: 7,
    online_drivers: 3,
    available_drivers: 0,
    busy_drivers: 3,
    pending_users,
    workload_alert,
  };
}

const setAlert = (a: WorkloadAlert) => act(() => useStats.setState({ stats: stats(a) }));
const shownLevel = () => screen.queryByTestId('workload-alert')?.getAttribute('data-status') ?? 'hidden';
const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));

beforeEach(() => {
  useStats.setState({ stats: null });
  useTimeclock.setState({ offsetMs: 0 });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('workload alert card', () => {
  it('shows a non-normal status only once it is 60 s old, and hides only once normal is 60 s old', async () => {
    vi.useFakeTimers({
      now: T0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    useStats.setState({ stats: stats(alert('normal', T0 - 3_600_000)) });
    render(<WorkloadAlertCard />);
    expect(shownLevel()).toBe('hidden');

    setAlert(alert('critical', Date.now()));
    expect(shownLevel()).toBe('hidden');
    await advance(ALERT_HYSTERESIS_MS - 1000);
    expect(shownLevel()).toBe('hidden');
    // Nothing new arrives: the card turns by itself when the status has held long enough.
    await advance(1000);
    expect(shownLevel()).toBe('critical');
    expect(screen.getByRole('heading', { name: UI_BOARD.alert.critical })).toBeInTheDocument();

    // Flapping under a minute changes nothing on the wall.
    setAlert(alert('normal', Date.now()));
    await advance(30_000);
    setAlert(alert('warning', Date.now()));
    await advance(30_000);
    expect(shownLevel()).toBe('critical');
    setAlert(alert('normal', Date.now()));
    await advance(ALERT_HYSTERESIS_MS - 1000);
    expect(shownLevel()).toBe('critical');
    // The critical card still shows what it showed, not the live 'normal' texts.
    expect(screen.getByText('Mensaje critical')).toBeInTheDocument();
    await advance(1000);
    expect(shownLevel()).toBe('hidden');
  });

  it('a dashboard opened in a crisis that began over a minute ago shows it at once, with live figures', async () => {
    vi.useFakeTimers({
      now: T0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    useStats.setState({ stats: stats(alert('warning', T0 - 5 * 60_000, 9)) });
    render(<WorkloadAlertCard />);
    expect(shownLevel()).toBe('warning');
    expect(screen.getByRole('heading', { name: UI_BOARD.alert.warning })).toBeInTheDocument();
    expect(screen.getByText(UI_BOARD.alert.since('5 min'))).toBeInTheDocument();
    const pending = () =>
      within(screen.getByTestId('workload-alert')).getByText(UI_BOARD.alert.pendingTasks).nextSibling;
    expect(pending()).toHaveTextContent('9');
    // Same level, new figures: shown at once.
    setAlert(alert('warning', T0 - 5 * 60_000, 12));
    expect(pending()).toHaveTextContent('12');
  });

  it("compares `since` on the server's clock, not the device's", async () => {
    vi.useFakeTimers({
      now: T0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    // This device runs 10 minutes behind the server: a crisis that began 2 min ago (server time) is
    // older than a minute, though the device's clock says it has not begun yet.
    useTimeclock.setState({ offsetMs: 10 * 60_000 });
    useStats.setState({ stats: stats(alert('critical', T0 + 8 * 60_000)) });
    render(<WorkloadAlertCard />);
    expect(shownLevel()).toBe('critical');
  });
});

const pendingUser = (i: number): PendingUser => ({
  id: `p${i}`,
  name: `Pendiente ${i}`,
  email: `p${i}@patio.es`,
  role: 'conductor',
  created_at: new Date(T0).toISOString(),
  request_text: 'Soy conductor',
});

const note = (id: string, type: Notification['type']): Notification => ({
  id,
  type,
  title: type === 'user_pending' ? 'Nuevo usuario pendiente' : 'Tarea devuelta',
  message: `Aviso ${id}`,
  is_read: false,
  play_sound: false,
  task_id: null,
  created_at: new Date(T0).toISOString(),
});

function renderBoard(role: 'admin' | 'gestor', pending: number) {
  useSession.setState({
    token: 'tok',
    user: { id: 'me', name: 'Yo', email: 'yo@patio.es', role },
    status: 'authenticated',
  });
  usePendingUsers.setState({
    users: Array.from({ length: pending }, (_, i) => pendingUser(i)),
    loaded: true,
  });
  useNotifications.setState({
    items: [
      note('n1', 'user_pending'),
      note('n2', 'user_pending'),
      note('n3', 'user_pending'),
      note('n4', 'task_returned'),
    ],
    loaded: true,
  });
  mockFetch((path) => {
    if (path === '/tasks') return json(200, []);
    if (path === '/dashboard/stats') return json(200, stats(alert('critical', T0 - 3_600_000), pending));
    if (path === '/dashboard/online-drivers' || path === '/dashboard/rankings') return json(200, []);
    if (path === '/server-time') return json(200, { madrid_time: '', epoch_ms: Date.now() });
    return json(404, { detail: 'no' });
  });
  return render(
    <MemoryRouter>
      <BoardView />
    </MemoryRouter>,
  );
}

describe('dashboard layout', () => {
  it("pending users are one line in the board's title row; Revisar opens the approval dialog", async () => {
    useUi.setState({ approvalOpen: false });
    renderBoard('admin', 3);
    const line = screen.getByTestId('pending-users-line');
    expect(line).toHaveTextContent(`${UI_BOARD.pending.line(3)}·${UI_BOARD.pending.review}`);
    expect(UI_BOARD.pending.line(3)).toBe('3 usuarios pendientes');
    expect(UI_BOARD.pending.line(1)).toBe('1 usuario pendiente');
    await userEvent
      .setup({ delay: null })
      .click(within(line).getByRole('button', { name: UI_BOARD.pending.review }));
    expect(useUi.getState().approvalOpen).toBe(true);

    // No banner per pending user: the only banner left is the returned task, in the sidebar.
    const banners = screen.getAllByTestId('notification-banner');
    expect(banners.map((b) => b.getAttribute('data-type'))).toEqual(['task_returned']);
    expect(screen.getByTestId('sidebar')).toContainElement(banners[0]);
  });

  it('nothing that comes and goes sits above the board: the alert is in the sidebar', async () => {
    renderBoard('admin', 0);
    expect(screen.queryByTestId('pending-users-line')).toBeNull();
    const alertCard = await screen.findByTestId('workload-alert');
    expect(screen.getByTestId('sidebar')).toContainElement(alertCard);
    // Right after the stat cards comes the row holding the board.
    const statCards = screen.getByTestId('stat-cards');
    expect(statCards.nextElementSibling).toContainElement(screen.getByTestId('kanban'));
    expect(statCards.previousElementSibling).toBeNull();
    expect(screen.getByText(UI_BOARD.stats.finished)).toBeInTheDocument();
    expect(UI_BOARD.stats.finished).toMatch(/24 h/);
  });

  it('a gestor has no pending line', async () => {
    renderBoard('gestor', 2);
    await waitFor(() => expect(screen.getByTestId('kanban')).toBeInTheDocument());
    expect(screen.queryByTestId('pending-users-line')).toBeNull();
  });
});
