// CONTRACT §16 on the driver's screen: the one persistent offline indicator (with what waits on the
// phone) and the actions the server refused on a replay, each shown until the driver dismisses it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERR, UI_DRIVER } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { outboxDb, type QueuedAction } from '../../offline/outbox-db';
import { useReachability } from '../../offline/reachability';
import { useOutbox, type RefusedAction } from '../../stores/outbox';
import { useSession } from '../../stores/session';
import { DRIVER } from './test-fixtures';
import { OfflineIndicator, RefusedActions } from './OfflineStatus';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const O = UI_DRIVER.offline;

const queued = (n: number): QueuedAction[] =>
  Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    user_id: DRIVER.id,
    key: `00000000-0000-4000-8000-00000000000${i}`,
    kind: 'punch',
    path: '/timeclock/punch',
    query: { clock_type: 'entrada' },
    body: { client_time: new Date().toISOString() },
    task_id: null,
    label: O.punchLabel('entrada'),
    created_at: Date.now(),
  }));

const indicator = () => screen.queryByTestId('offline-indicator');

beforeEach(async () => {
  for (const a of await outboxDb.list(DRIVER.id)) await outboxDb.remove(a.seq!);
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useOutbox.setState({ pending: [], refused: [] });
  useReachability.setState({ reachable: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('offline indicator', () => {
  it('is absent while the server answers and nothing waits', () => {
    render(<OfflineIndicator />);
    expect(indicator()).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('without a server: Sin conexión · N acciones pendientes, and what it means', () => {
    useReachability.setState({ reachable: false });
    useOutbox.setState({ pending: queued(2) });
    render(<OfflineIndicator />);
    const status = screen.getByRole('status');
    expect(within(status).getByText('Sin conexión · 2 acciones pendientes')).toBeInTheDocument();
    expect(within(status).getByText(O.indicator(2))).toBeInTheDocument();
    expect(within(status).getByText(O.indicatorHint)).toBeInTheDocument();
  });

  it('without a server and nothing waiting: just Sin conexión', () => {
    useReachability.setState({ reachable: false });
    render(<OfflineIndicator />);
    const line = within(screen.getByRole('status')).getByText('Sin conexión');
    expect(line).toHaveTextContent(/^Sin conexión$/);
    expect(screen.queryByText(/pendiente/)).toBeNull();
  });

  it('the server back with actions still waiting: says they are being sent', () => {
    useOutbox.setState({ pending: queued(3) });
    render(<OfflineIndicator />);
    expect(within(screen.getByRole('status')).getByText(O.sending(3))).toBeInTheDocument();
    expect(screen.getByText('Enviando 3 acciones pendientes…')).toBeInTheDocument();
    expect(screen.queryByText(/Sin conexión/)).toBeNull();
  });

  it('follows the stores live: appears when the link drops, goes once the queue is sent', () => {
    render(<OfflineIndicator />);
    expect(indicator()).toBeNull();
    act(() => {
      useReachability.setState({ reachable: false });
      useOutbox.setState({ pending: queued(1) });
    });
    expect(indicator()).toHaveTextContent(O.indicator(1));
    act(() => useReachability.setState({ reachable: true }));
    expect(indicator()).toHaveTextContent(O.sending(1));
    act(() => useOutbox.setState({ pending: [] }));
    expect(indicator()).toBeNull();
  });

  it('counts an action made with no network, and clears once the server takes it', async () => {
    let up = false;
    mockFetch(() =>
      up ? json(200, { message: 'Entrada registrada' }) : Promise.reject(new TypeError('Failed to fetch')),
    );
    render(<OfflineIndicator />);
    await act(() =>
      useOutbox.getState().submit({
        kind: 'punch',
        path: '/timeclock/punch',
        query: { clock_type: 'entrada' },
        body: {},
        task_id: null,
        label: O.punchLabel('entrada'),
      }),
    );
    expect(indicator()).toHaveTextContent('Sin conexión · 1 acción pendiente');
    up = true;
    await act(() => useOutbox.getState().flush());
    await waitFor(() => expect(indicator()).toBeNull());
  });
});

describe('refused actions', () => {
  const refused = (over: Partial<RefusedAction> = {}): RefusedAction => ({
    key: 'k1',
    label: O.completeLabel('Mover R-1001 (Muelle 3 → Campa Norte)'),
    detail: ERR.notYourTask,
    // 08:05 in Madrid.
    created_at: Date.parse('2026-11-22T07:05:00.000Z'),
    ...over,
  });

  it('shows nothing when none was refused', () => {
    render(<RefusedActions />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says what was refused, when it was made (Madrid) and why; Entendido removes it', async () => {
    useOutbox.setState({
      refused: [
        refused(),
        refused({
          key: 'k2',
          label: O.punchLabel('salida'),
          detail: ERR.salidaWithTask,
          created_at: Date.parse('2026-07-01T16:30:00.000Z'),
        }),
      ],
    });
    render(<RefusedActions />);
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(2);
    const first = within(alerts[0]);
    expect(first.getByText(O.refusedTitle)).toBeInTheDocument();
    expect(first.getByText('El servidor no aceptó una acción hecha sin conexión')).toBeInTheDocument();
    expect(first.getByText('Completar Mover R-1001 (Muelle 3 → Campa Norte) (08:05)')).toBeInTheDocument();
    expect(first.getByText(ERR.notYourTask)).toBeInTheDocument();
    // Summer time: 16:30 UTC is 18:30 in Madrid.
    expect(within(alerts[1]).getByText('Fichar salida (18:30)')).toBeInTheDocument();
    expect(within(alerts[1]).getByText(ERR.salidaWithTask)).toBeInTheDocument();

    await userEvent.click(first.getByRole('button', { name: 'Entendido' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText(ERR.notYourTask)).toBeNull();
    expect(screen.getByText(ERR.salidaWithTask)).toBeInTheDocument();
    expect(useOutbox.getState().refused.map((r) => r.key)).toEqual(['k2']);

    await userEvent.click(screen.getByRole('button', { name: O.dismiss }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(useOutbox.getState().refused).toEqual([]);
  });
});
