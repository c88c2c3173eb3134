// The dashboard's Attention list (CONTRACT §15) in jsdom: each kind with its Spanish line, the trailer and
// the driver; it re-evaluates as time passes and on every task change, and stays empty-but-present.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { UI_ATTENTION } from '@shared/labels';
import { useDrivers } from '../../stores/drivers';
import { useTasks } from '../../stores/tasks';
import { WALL_NOW, wallTask } from '../../views/Wall/test-fixtures';
import { AttentionList } from './AttentionList';
import { ATTENTION_TICK_MS } from './useAttention';

const NOW = WALL_NOW;
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  useTasks.getState().reset();
  useDrivers.setState({ online: [], rankings: [], loaded: false });
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

    // A Swap task waiting is never auto-assigned: not an exception.
    expect(items().map((i) => i.getAttribute('data-kind'))).toEqual([
      'driver_offline',
      'in_progress_long',
      'pool_waiting',
      'on_hold',
    ]);
    expect(list().getByText(UI_ATTENTION.driverOffline('1 h 48 min'))).toBeInTheDocument();
    expect(list().getByText('Marta Gil')).toBeInTheDocument();
    expect(list().getByText(UI_ATTENTION.inProgressLong('45 min'))).toBeInTheDocument();
    expect(list().getByText('Jesús Jiménez')).toBeInTheDocument();
    expect(list().getByText(UI_ATTENTION.poolWaiting('14 min'))).toBeInTheDocument();
    expect(list().getByText(waiting.trailer_id)).toBeInTheDocument();
    expect(list().getByText(`${UI_ATTENTION.held('Remolque dañado')} · 3 min`)).toBeInTheDocument();
    expect(screen.getByLabelText(UI_ATTENTION.count(4))).toHaveTextContent('4');
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
});
