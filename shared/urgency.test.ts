import { describe, expect, it } from 'vitest';
import { byUrgency, longestRunningFirst } from './urgency';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const min = (n: number) => new Date(NOW + n * 60_000).toISOString();

const t = (
  id: string,
  fields: Partial<{
    on_hold: boolean;
    priority: 'high' | 'normal' | 'low';
    created_at: string;
    status_since: string;
    due_at: string | null;
  }>,
) => ({
  id,
  on_hold: false,
  priority: 'normal' as const,
  created_at: '2026-01-01T10:00:00.000Z',
  status_since: '2026-01-01T10:00:00.000Z',
  due_at: null,
  ...fields,
});

const order = (tasks: ReturnType<typeof t>[], now = NOW) => tasks.sort(byUrgency(now)).map((x) => x.id);

describe('urgency order (CONTRACT §20)', () => {
  it('without deadlines: held last, then high priority first, then the oldest first', () => {
    const tasks = [
      t('new-normal', { created_at: '2026-01-01T10:05:00.000Z' }),
      t('held-high', { on_hold: true, priority: 'high', created_at: '2026-01-01T09:00:00.000Z' }),
      t('old-low', { priority: 'low', created_at: '2026-01-01T08:00:00.000Z' }),
      t('new-high', { priority: 'high', created_at: '2026-01-01T10:10:00.000Z' }),
      t('old-normal', { created_at: '2026-01-01T09:30:00.000Z' }),
      t('old-high', { priority: 'high', created_at: '2026-01-01T09:45:00.000Z' }),
    ];
    // Past high priority, ties are oldest first (the rule says nothing of normal against low).
    expect(order(tasks)).toEqual([
      'old-high',
      'new-high',
      'old-low',
      'old-normal',
      'new-normal',
      'held-high',
    ]);
  });

  it('puts every step in its place: overdue, due within 60 min, high, other deadlines, none, held', () => {
    const tasks = [
      t('none', { created_at: '2026-01-01T08:00:00.000Z' }),
      t('held-overdue', { on_hold: true, due_at: min(-30) }),
      t('later-deadline', { due_at: min(61), created_at: '2026-01-01T11:00:00.000Z' }),
      t('high', { priority: 'high', created_at: '2026-01-01T11:30:00.000Z' }),
      t('soon', { due_at: min(45) }),
      t('overdue', { due_at: min(-5) }),
      t('high-late-deadline', { priority: 'high', due_at: min(300), created_at: '2026-01-01T11:40:00.000Z' }),
      t('held-none', { on_hold: true, created_at: '2026-01-01T07:00:00.000Z' }),
    ];
    expect(order(tasks)).toEqual([
      'overdue',
      'soon',
      'high',
      'high-late-deadline',
      'later-deadline',
      'none',
      'held-overdue',
      'held-none',
    ]);
  });

  it('overdue: the most overdue first, before any priority', () => {
    const tasks = [
      t('late-5', { due_at: min(-5), priority: 'high' }),
      t('late-40', { due_at: min(-40), priority: 'low' }),
      t('late-12', { due_at: min(-12) }),
    ];
    expect(order(tasks)).toEqual(['late-40', 'late-12', 'late-5']);
  });

  it('due within 60 minutes: the soonest first, a deadline exactly now is overdue, 60 min away is not soon yet', () => {
    const tasks = [
      t('in-60', { due_at: min(60) }),
      t('in-10', { due_at: min(10) }),
      t('now', { due_at: min(0), created_at: '2026-01-01T11:59:00.000Z' }),
      t('in-59', { due_at: min(59), priority: 'low' }),
      t('high', { priority: 'high', created_at: '2026-01-01T06:00:00.000Z' }),
    ];
    expect(order(tasks)).toEqual(['now', 'in-10', 'in-59', 'high', 'in-60']);
  });

  it('other deadlines: the soonest first, before tasks without one; ties oldest first', () => {
    const tasks = [
      t('none-old', { created_at: '2026-01-01T06:00:00.000Z' }),
      t('in-5h', { due_at: min(300) }),
      t('in-2h-new', { due_at: min(120), created_at: '2026-01-01T11:00:00.000Z' }),
      t('in-2h-old', { due_at: min(120), created_at: '2026-01-01T09:00:00.000Z' }),
    ];
    expect(order(tasks)).toEqual(['in-2h-old', 'in-2h-new', 'in-5h', 'none-old']);
  });

  it('moves with the clock: a deadline 90 min away waits behind high priority, 31 min later it is due soon', () => {
    const tasks = [
      t('high', { priority: 'high' }),
      t('deadline', { due_at: min(90), created_at: '2026-01-01T11:00:00.000Z' }),
    ];
    expect(order(tasks)).toEqual(['high', 'deadline']);
    expect(order(tasks, NOW + 31 * 60_000)).toEqual(['deadline', 'high']);
  });

  it('ties end on the id, so the order is total', () => {
    expect(order([t('b', {}), t('a', {})])).toEqual(['a', 'b']);
  });

  it('runs En Proceso longest first', () => {
    const tasks = [
      t('short', { status_since: '2026-01-01T10:30:00.000Z' }),
      t('long', { status_since: '2026-01-01T09:00:00.000Z' }),
      t('mid', { status_since: '2026-01-01T10:00:00.000Z' }),
    ];
    expect(tasks.sort(longestRunningFirst).map((x) => x.id)).toEqual(['long', 'mid', 'short']);
  });
});
