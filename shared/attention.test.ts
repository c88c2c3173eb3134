import { describe, expect, it } from 'vitest';
import { makeTask } from '../client/src/test/tasks';
import { attentionItems } from './attention';

const NOW = Date.parse('2026-03-10T10:00:00.000Z');
const ago = (m: number) => new Date(NOW - m * 60_000).toISOString();

describe('attention: Remolque duplicado (CONTRACT §19)', () => {
  it('lists both open tasks whose plates are one trailer, since the later one', () => {
    const first = makeTask({
      trailer_id: 'R-4136-FVR',
      vehicle_type: 'swap',
      created_at: ago(30),
      status_since: ago(30),
    });
    const second = makeTask({
      trailer_id: 'R4136FVR',
      status: 'en_proceso',
      vehicle_type: 'swap',
      created_at: ago(5),
      status_since: ago(5),
      assigned_at: ago(5),
    });
    const done = makeTask({ trailer_id: 'r 4136 fvr', status: 'finalizada', created_at: ago(60) });
    const other = makeTask({ trailer_id: 'R-4136-FVS', vehicle_type: 'swap', created_at: ago(1) });
    const items = attentionItems([first, second, done, other], NOW);
    expect(items.map((i) => [i.kind, i.task.id, i.since])).toEqual([
      ['duplicate_trailer', first.id, ago(5)],
      ['duplicate_trailer', second.id, ago(5)],
    ]);
  });

  it('lists nothing once one of them is closed', () => {
    const a = makeTask({
      trailer_id: 'R-1-A',
      vehicle_type: 'swap',
      created_at: ago(3),
      status_since: ago(3),
    });
    const b = makeTask({ trailer_id: 'r1a', status: 'finalizada', created_at: ago(2) });
    expect(attentionItems([a, b], NOW)).toEqual([]);
  });
});
