// The desktop pool column follows CONTRACT §20's order of urgency (issue 28: it sorted newest first while
// the wall sorted by urgency), and moves with the clock; the other columns keep their order.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { Task } from '@shared/schemas';
import { makeTask } from '../../test/tasks';
import { useTasks } from '../../stores/tasks';
import { useColumn } from './KanbanColumn';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const load = (tasks: Task[]) => useTasks.setState({ byId: Object.fromEntries(tasks.map((t) => [t.id, t])) });

afterEach(() => {
  vi.useRealTimers();
  useTasks.setState({ byId: {} });
});

describe('useColumn', () => {
  it('orders the pool by urgency and re-orders it as a deadline comes within the hour', () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const high = makeTask({ id: 'high', priority: 'high', created_at: at(-30) });
    const dueLater = makeTask({ id: 'due-later', due_at: at(90), created_at: at(-20) });
    const plain = makeTask({ id: 'plain', created_at: at(-60) });
    const newest = makeTask({ id: 'newest', created_at: at(-1) });
    const running = makeTask({ id: 'running', status: 'en_proceso', created_at: at(-5) });
    act(() => load([plain, dueLater, high, newest, running]));

    const { result } = renderHook(() => useColumn('bolsa_trabajo'));
    // High priority, then other deadlines, then no deadline (oldest first): not newest first.
    expect(result.current.map((t) => t.id)).toEqual(['high', 'due-later', 'plain', 'newest']);

    // 31 minutes on, the deadline is within the hour: it overtakes high priority.
    act(() => void vi.advanceTimersByTime(31 * 60_000));
    expect(result.current.map((t) => t.id)).toEqual(['due-later', 'high', 'plain', 'newest']);
  });

  it('leaves En Proceso newest first', () => {
    const older = makeTask({ id: 'older', status: 'en_proceso', created_at: at(-10), priority: 'high' });
    const newer = makeTask({ id: 'newer', status: 'en_proceso', created_at: at(-2) });
    act(() => load([older, newer]));
    const { result } = renderHook(() => useColumn('en_proceso'));
    expect(result.current.map((t) => t.id)).toEqual(['newer', 'older']);
  });
});
