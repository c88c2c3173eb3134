// The activity log's filters and pages (CONTRACT §13, §15): `type`, `user_id`, `date_from`/`date_to`
// (Madrid days, inclusive), newest first, `limit` and `before` = the last row's id.
import { beforeEach, describe, expect, it } from 'vitest';
import { ERR } from '@shared/labels';
import type { LogEntry } from '@shared/schemas';
import type { LogType } from '@shared/enums';
import { activityLog } from '../../server/db/tables';
import { db, makeUser, setupApp, tx, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;

const row = (type: LogType, who: TestUser | null, details: string, iso: string) => ({
  type,
  userId: who?.user.id ?? null,
  userName: who?.user.name ?? 'Sistema',
  action: 'Acción',
  details,
  timestamp: new Date(iso),
});

beforeEach(async () => {
  ({ api } = await setupApp());
  admin = await makeUser('admin');
  ana = await makeUser('gestor', { name: 'Ana' });
  bruno = await makeUser('conductor', { name: 'Bruno' });
  await tx(async () => {
    await db.delete(activityLog);
    await db.insert(activityLog).values([
      // 2026-03-28 is the day before the spring change; Madrid is UTC+1 then, UTC+2 from the 29th.
      row('task', ana, 'a1', '2026-03-27T22:59:59Z'), // 23:59:59 on the 27th in Madrid
      row('task', ana, 'a2', '2026-03-27T23:00:00Z'), // 00:00 on the 28th
      row('auth', bruno, 'b1', '2026-03-28T12:00:00Z'),
      row('timeclock', bruno, 'b2', '2026-03-28T22:59:59Z'), // 23:59:59 on the 28th
      row('system', null, 's1', '2026-03-28T23:00:00Z'), // 00:00 on the 29th (01:00 jumps to 03:00 later)
      row('task', ana, 'a3', '2026-03-29T21:59:59Z'), // 23:59:59 CEST on the 29th
      row('user', ana, 'a4', '2026-03-29T22:00:00Z'), // 00:00 on the 30th
    ]);
  });
});

async function logs(query: Record<string, string | number>): Promise<LogEntry[]> {
  const res = await api().get('/api/admin/system/logs').query(query).set(admin.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const details = (list: LogEntry[]) => list.map((l) => l.details);

describe('GET /api/admin/system/logs filters', () => {
  it('newest first, each row with its id', async () => {
    const all = await logs({});
    expect(details(all)).toEqual(['a4', 'a3', 's1', 'b2', 'b1', 'a2', 'a1']);
    const ids = all.map((l) => l.id);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('by type', async () => {
    expect(details(await logs({ type: 'task' }))).toEqual(['a3', 'a2', 'a1']);
    expect(details(await logs({ type: 'system' }))).toEqual(['s1']);
  });

  it('by actor', async () => {
    expect(details(await logs({ user_id: bruno.user.id }))).toEqual(['b2', 'b1']);
    expect(details(await logs({ user_id: ana.user.id, type: 'user' }))).toEqual(['a4']);
    expect(await logs({ user_id: admin.user.id })).toEqual([]);
  });

  it('by Madrid days, both inclusive, across the spring DST change', async () => {
    expect(details(await logs({ date_from: '2026-03-28', date_to: '2026-03-28' }))).toEqual([
      'b2',
      'b1',
      'a2',
    ]);
    expect(details(await logs({ date_from: '2026-03-29', date_to: '2026-03-29' }))).toEqual(['a3', 's1']);
    expect(details(await logs({ date_from: '2026-03-29' }))).toEqual(['a4', 'a3', 's1']);
    expect(details(await logs({ date_to: '2026-03-27' }))).toEqual(['a1']);
    // A cleared filter (empty value) counts as absent.
    expect(await logs({ type: '', user_id: '', date_from: '', date_to: '' })).toHaveLength(7);
  });

  it('pages with limit and before = the last row id, to the end, filters kept', async () => {
    const first = await logs({ limit: 3 });
    expect(details(first)).toEqual(['a4', 'a3', 's1']);
    const second = await logs({ limit: 3, before: first[2].id });
    expect(details(second)).toEqual(['b2', 'b1', 'a2']);
    const third = await logs({ limit: 3, before: second[2].id });
    expect(details(third)).toEqual(['a1']);
    expect(await logs({ limit: 3, before: third[0].id })).toEqual([]);

    const tasks = await logs({ type: 'task', limit: 2 });
    expect(details(tasks)).toEqual(['a3', 'a2']);
    expect(details(await logs({ type: 'task', limit: 2, before: tasks[1].id }))).toEqual(['a1']);
  });

  it('400 in Spanish for a bad type, id, date, order or cursor', async () => {
    const bad: Record<string, string>[] = [
      { type: 'tarea' },
      { user_id: 'ana' },
      { date_from: '2026-02-30' },
      { date_to: '28/03/2026' },
      { date_from: '2026-03-29', date_to: '2026-03-28' },
      { before: 'abc' },
      { before: '0' },
      { before: '1.5' },
    ];
    for (const query of bad) {
      const res = await api().get('/api/admin/system/logs').query(query).set(admin.auth);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
    const order = await api()
      .get('/api/admin/system/logs')
      .query({ date_from: '2026-03-29', date_to: '2026-03-28' })
      .set(admin.auth);
    expect(order.body).toEqual({ detail: ERR.dateOrder });
  });

  it('only the admin reads it', async () => {
    for (const role of ['manager', 'gestor', 'conductor'] as const) {
      const { auth } = await makeUser(role);
      const res = await api().get('/api/admin/system/logs').query({ type: 'task' }).set(auth);
      expect(res.status).toBe(403);
    }
  });
});
