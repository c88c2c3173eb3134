// The dashboard's Attention list (CONTRACT §15) in jsdom: each kind with its Spanish line, the trailer and
// the driver; it re-evaluates as time passes and on every task change, and stays empty-but-present.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { OVERFULL_LABEL, UI_ATTENTION } from '@shared/labels';
import { formatTime } from '@shared/time';
import { useDrivers } from '../../stores/drivers';
import { useTasks } from '../../stores/tasks';
import { useYard } from '../../stores/yard';
import { WALL_NOW, wallTask } from '../../views/Wall/test-fixtures';
import { AttentionList } from './AttentionList';
import { ATTENTION_TICK_MS } from './useAttention';

// The yard's feed (GET /yard) is the store's own business: here the test sets the store.
vi.mock('../../stores/yard', async (original) => ({
  ...(await original<typeof import('../../stores/yard')>()),
  useYardFeed: () => {},
}));

const NOW = WALL_NOW;
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  useTasks.getState().reset();
  useDrivers.setState({ online: [], rankings: [], loaded: false });
  useYard.setState({ places: [], trailers: [], loaded: true, failed: false });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const list = () => within(screen.getByTestId('attention-list'));
const items = () => list().queryAllByTestId('attention-item');

describe('AttentionList (board)', () => {
  it('lists every kind with trailer, driver and how long, the longest-standing first', () => {
    const held = wallTask({ on_hold: true, hold_reason: 'Remolque dañado', status_since: minutesAgo(3) });
    const waiting = wallTask({ vehicle_type: 'semiremolque', status_since: minutesAgo(14) });
    const swapWaiting = wallTask({ vehicle_type: 'swap', status_since: minutesAgo(40) });
    const long = wallTask({
      status: 'en_proceso',
      assigned_to: 'd1',
      assigned_to_name: 'Jesús Jiménez',
      assigned_at: minutesAgo(45),
      status_since: minutesAgo(45),
      assignee_online: true,
    });
    const offline = wallTask({
      status: 'en_proceso',
      assigned_to: 'd2',
      assigned_to_name: 'Marta Gil',
      assigned_at: minutesAgo(10),
      status_since: minutesAgo(10),
      assignee_online: false,
      assignee_offline_since: minutesAgo(108),
    });
    for (const t of [held, waiting, swapWaiting, long, offline]) useTasks.getState().apply(t);
    render(<AttentionList variant="board" />);

    // A Swap task is never auto-assigned, but waiting over 20 minutes it escalates (CONTRACT §20: espera).
    expect(items().map((i) => i.getAttribute('data-kind'))).toEqual([
      'driver_offline',
      'in_progress_long',
      'espera',
      'pool_waiting',
      'on_hold',
    ]);
    expect(list().getByText(UI_ATTENTION.waiting('40 min'))).toBeInTheDocument();
    expect(list().getByText(UI_ATTENTION.driverOffline('1 h 48 min'))).toBeInTheDocument();
    expect(list().getByText('Marta Gil')).toBeInTheDocument();
    expect(list().getByText(UI_ATTENTION.inProgressLong('45 min'))).toBeInTheDocument();
    expect(list().getByText('Jesús Jiménez')).toBeInTheDocument();
    expect(list().getByText(UI_ATTENTION.poolWaiting('14 min'))).toBeInTheDocument();
    expect(list().getByText(waiting.trailer_id)).toBeInTheDocument();
    expect(list().getByText(`${UI_ATTENTION.held('Remolque dañado')} · 3 min`)).toBeInTheDocument();
    expect(screen.getByLabelText(UI_ATTENTION.count(5))).toHaveTextContent('5');
  });

  it('re-evaluates as time passes and when a task changes', async () => {
    const task = wallTask({ vehicle_type: 'semiremolque', status_since: minutesAgo(9) });
    useTasks.getState().apply(task);
    render(<AttentionList variant="board" />);
    expect(items()).toHaveLength(0);
    expect(list().getByText(UI_ATTENTION.empty)).toBeInTheDocument();

    // Ten minutes waiting is the threshold: a few seconds past it, it is listed.
    await act(async () => vi.advanceTimersByTimeAsync(60_000 + ATTENTION_TICK_MS));
    expect(list().getByText(UI_ATTENTION.poolWaiting('10 min'))).toBeInTheDocument();

    // Staff hold it: the same task, now on hold with its reason.
    act(() =>
      useTasks.getState().apply({
        ...task,
        on_hold: true,
        hold_reason: 'Ubicación ocupada',
        status_since: new Date(Date.now()).toISOString(),
        version: 2,
      }),
    );
    expect(items()).toHaveLength(1);
    expect(items()[0]).toHaveAttribute('data-kind', 'on_hold');
    expect(list().getByText(`${UI_ATTENTION.held('Ubicación ocupada')} · 0 s`)).toBeInTheDocument();

    // Completed elsewhere: gone.
    act(() => useTasks.getState().deleted(task.id));
    expect(items()).toHaveLength(0);
  });

  it('shows two open tasks of one trailer as Remolque duplicado (CONTRACT §19)', () => {
    const a = wallTask({
      trailer_id: 'R-4136-FVR',
      created_at: minutesAgo(20),
      status_since: minutesAgo(20),
    });
    const b = wallTask({ trailer_id: 'R4136FVR', created_at: minutesAgo(7), status_since: minutesAgo(7) });
    for (const t of [a, b]) useTasks.getState().apply(t);
    render(<AttentionList variant="board" />);
    expect(items().map((i) => i.getAttribute('data-kind'))).toEqual([
      'duplicate_trailer',
      'duplicate_trailer',
    ]);
    expect(list().getAllByText(`${UI_ATTENTION.duplicateTrailer} · 7 min`)).toHaveLength(2);
    expect(list().getByText('R-4136-FVR')).toBeInTheDocument();
    expect(list().getByText('R4136FVR')).toBeInTheDocument();
  });

  it('shows the escalation rules with the texts of the server and an overfull place (CONTRACT §20)', () => {
    const late = wallTask({
      status: 'en_proceso',
      assigned_to: 'd1',
      assigned_to_name: 'Jesús Jiménez',
      assigned_at: minutesAgo(25),
      status_since: minutesAgo(25),
      assignee_online: true,
      due_at: minutesAgo(12),
    });
    const dueAt = new Date(NOW + 15 * 60_000).toISOString();
    const dueSoon = wallTask({
      on_hold: true,
      hold_reason: 'Ubicación ocupada',
      status_since: minutesAgo(2),
      due_at: dueAt,
    });
    const farDeadline = wallTask({
      status_since: minutesAgo(2),
      due_at: new Date(NOW + 25 * 60_000).toISOString(),
    });
    for (const t of [late, dueSoon, farDeadline]) useTasks.getState().apply(t);
    const trailer = (id: string, m: number) => ({
      trailer_id: id,
      since: minutesAgo(m),
      open_task: null,
      marks: {} as never,
    });
    const place = (id: string, capacity: number, trailers: ReturnType<typeof trailer>[]) =>
      ({
        id,
        code: id,
        name: `Campa ${id}`,
        kind: 'campa',
        zone: 'A',
        capacity,
        x: 0,
        y: 0,
        active: true,
        trailers,
        incoming: [],
        free: capacity - trailers.length,
      }) as never;
    useYard.setState({
      places: [
        place('A-1', 1, [trailer('R-1', 60), trailer('R-2', 30)]),
        place('A-2', 2, [trailer('R-3', 60), trailer('R-4', 30)]),
      ],
    });
    render(<AttentionList variant="board" />);

    expect(items().map((i) => i.getAttribute('data-kind'))).toEqual(['overfull', 'retraso', 'plazo']);
    expect(list().getByText(UI_ATTENTION.late('12 min'))).toBeInTheDocument();
    // The held task due soon says its hold and why as well.
    expect(
      list().getByText(
        `${UI_ATTENTION.dueSoon(formatTime(dueAt))} · ${UI_ATTENTION.held('Ubicación ocupada')}`,
      ),
    ).toBeInTheDocument();
    expect(list().getByText(`${OVERFULL_LABEL}: 2 de 1`)).toBeInTheDocument();
    expect(list().getByText('A-1 · Campa A-1')).toBeInTheDocument();
    expect(list().queryByText('A-2 · Campa A-2')).toBeNull();
  });
});
