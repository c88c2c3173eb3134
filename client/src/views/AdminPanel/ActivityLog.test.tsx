import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { LOGS_DEFAULT_LIMIT } from '@shared/constants';
import { UI_SYSTEM } from '@shared/labels';
import type { LogEntry } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { NO_LOG_FILTERS, useSystem } from '../../stores/system';
import { useUsers } from '../../stores/users';
import { ActivityLog } from './ActivityLog';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = UI_SYSTEM.logs;
const entry = (id: number): LogEntry => ({
  id,
  type: id % 2 ? 'task' : 'timeclock',
  user: 'Marta',
  action: 'Acción',
  details: `Registro ${id}`,
  timestamp: new Date(Date.UTC(2026, 6, 1, 10, 30, 7) - (1000 - id) * 1000).toISOString(),
});
/** A page of `n` rows, newest first, from id `top` down. */
const page = (top: number, n: number) => Array.from({ length: n }, (_, i) => entry(top - i));

/** The view as the Sistema page mounts it: the store's logs, reloaded by the store's actions. */
function Harness() {
  const logs = useSystem((s) => s.logs);
  return <ActivityLog logs={logs} />;
}

beforeEach(() => {
  useSystem.setState({
    logs: null,
    failed: {},
    logFilters: NO_LOG_FILTERS,
    logsMore: false,
    logsLoadingMore: false,
  });
  useUsers.setState({
    users: [
      {
        id: '00000000-0000-4000-8000-00000000aaaa',
        name: 'Marta',
        email: 'marta@test.local',
        role: 'manager',
        is_approved: true,
        is_online: false,
        movements_count: 0,
        task_types: [],
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ],
    loaded: true,
  });
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const queryOf = (call: unknown[]) => new URL(String(call[0]), 'http://localhost').searchParams;

describe('activity log filters and pages (CONTRACT §15)', { timeout: 20_000 }, () => {
  it('shows Madrid times with seconds', async () => {
    mockFetch(() => json(200, [entry(1000)]));
    render(<Harness />);
    await act(() => useSystem.getState().setLogFilters(NO_LOG_FILTERS));
    // 10:30:07 UTC is 12:30:07 in Madrid in July.
    expect(within(screen.getByTestId('activity-log')).getByText('01/07/2026, 12:30:07')).toBeInTheDocument();
  });

  it('every filter reads the log again with its query; clearing drops them', async () => {
    const fetch = mockFetch(() => json(200, page(10, 3)));
    render(<Harness />);
    await act(() => useSystem.getState().setLogFilters(NO_LOG_FILTERS));
    expect([...queryOf(fetch.mock.calls.at(-1)!).keys()]).toEqual(['limit']);

    fireEvent.change(screen.getByLabelText(T.filters.dateFrom), { target: { value: '2026-07-01' } });
    await vi.waitFor(() => expect(queryOf(fetch.mock.calls.at(-1)!).get('date_from')).toBe('2026-07-01'));
    fireEvent.change(screen.getByLabelText(T.filters.dateTo), { target: { value: '2026-07-02' } });
    await vi.waitFor(() => expect(queryOf(fetch.mock.calls.at(-1)!).get('date_to')).toBe('2026-07-02'));
    expect(queryOf(fetch.mock.calls.at(-1)!).get('date_from')).toBe('2026-07-01');

    await act(() =>
      useSystem.getState().setLogFilters({
        ...useSystem.getState().logFilters,
        type: 'timeclock',
        user_id: '00000000-0000-4000-8000-00000000aaaa',
      }),
    );
    const q = queryOf(fetch.mock.calls.at(-1)!);
    expect(q.get('type')).toBe('timeclock');
    expect(q.get('user_id')).toBe('00000000-0000-4000-8000-00000000aaaa');
    expect(screen.getByRole('combobox', { name: T.filters.type })).toHaveTextContent('Fichaje');
    expect(screen.getByRole('combobox', { name: T.filters.user })).toHaveTextContent('Marta · Manager');

    await userEvent.click(screen.getByRole('button', { name: T.filters.clear }));
    await vi.waitFor(() => expect([...queryOf(fetch.mock.calls.at(-1)!).keys()]).toEqual(['limit']));
    expect(screen.getByRole('button', { name: T.filters.clear })).toBeDisabled();
  });

  it('Cargar más asks for the rows before the last id, keeps the filters, and appends', async () => {
    const fetch = mockFetch((_path) => {
      const before = queryOf(fetch.mock.calls.at(-1)!).get('before');
      return json(200, before ? page(Number(before) - 1, 2) : page(1000, LOGS_DEFAULT_LIMIT));
    });
    render(<Harness />);
    await act(() => useSystem.getState().setLogFilters({ ...NO_LOG_FILTERS, type: 'task' }));
    expect(within(screen.getByTestId('activity-log')).getAllByRole('row')).toHaveLength(LOGS_DEFAULT_LIMIT);

    await userEvent.click(screen.getByRole('button', { name: T.loadMore }));
    await vi.waitFor(() =>
      expect(within(screen.getByTestId('activity-log')).getAllByRole('row')).toHaveLength(
        LOGS_DEFAULT_LIMIT + 2,
      ),
    );
    const q = queryOf(fetch.mock.calls.at(-1)!);
    expect(q.get('before')).toBe(String(1000 - LOGS_DEFAULT_LIMIT + 1));
    expect(q.get('type')).toBe('task');
    const rows = within(screen.getByTestId('activity-log')).getAllByRole('row');
    expect(rows.at(-1)).toHaveTextContent(`Registro ${1000 - LOGS_DEFAULT_LIMIT - 1}`);
    // A short page is the last one.
    expect(screen.queryByRole('button', { name: T.loadMore })).not.toBeInTheDocument();
    expect(screen.getByText(T.end)).toBeInTheDocument();
  });

  it('says when the filters leave nothing', async () => {
    mockFetch(() => json(200, []));
    render(<Harness />);
    await act(() => useSystem.getState().setLogFilters({ ...NO_LOG_FILTERS, type: 'system' }));
    expect(screen.getByText(T.emptyFiltered)).toBeInTheDocument();
  });
});
