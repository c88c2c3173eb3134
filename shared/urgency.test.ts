import { describe, expect, it } from 'vitest';
import { byUrgency, longestRunningFirst } from './urgency';

const t = (
  id: string,
  fields: Partial<{
    on_hold: boolean;
    priority: 'high' | 'normal' | 'low';
    created_at: string;
    status_since: string;
  }>,
) => ({
  id,
  on_hold: false,
  priority: 'normal' as const,
  created_at: '2026-01-01T10:00:00.000Z',
  status_since: '2026-01-01T10:00:00.000Z',
  ...fields,
});

describe('urgency order', () => {
  it('puts held tasks last, then high priority first, then the oldest first', () => {
    const tasks = [
      t('new-normal', { created_at: '2026-01-01T10:05:00.000Z' }),
      t('held-high', { on_hold: true, priority: 'high', created_at: '2026-01-01T09:00:00.000Z' }),
      t('old-low', { priority: 'low', created_at: '2026-01-01T08:00:00.000Z' }),
      t('new-high', { priority: 'high', created_at: '2026-01-01T10:10:00.000Z' }),
      t('old-normal', { created_at: '2026-01-01T09:30:00.000Z' }),
      t('old-high', { priority: 'high', created_at: '2026-01-01T09:45:00.000Z' }),
    ];
    expect(tasks.sort(byUrgency).map((x) => x.id)).toEqual([
      'old-high',
      'new-high',
      'old-normal',
      'new-normal',
      'old-low',
      'held-high',
    ]);
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
