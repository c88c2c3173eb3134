// The searcher (CONTRACT §5): case- and accent-insensitive substring over the chosen field, Madrid
// days on created_at, newest first, capped, without deleted tasks; where each trailer is now; the
// history for the timeline.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { DEFAULT_TRAILER_MARKS, type SearchTask } from '@shared/schemas';
import { taskEvents, tasks, type TaskRow } from '../../server/db/tables';
import { searchTasks } from '../../server/services/search';
import { db, makeTask, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

const MIN = 60_000;
const HOUR = 60 * MIN;

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let gestor: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  gestor = await makeUser('gestor');
});

const ago = (ms: number) => new Date(now().getTime() - ms);
const at = (iso: string) => new Date(iso);

async function search(query: Record<string, string>): Promise<SearchTask[]> {
  const res = await api().get('/api/admin/search/tasks').query(query).set(gestor.auth);
  expect(res.status).toBe(200);
  return res.body;
}
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('who may search (CONTRACT §12)', () => {
  it('admin, manager and gestor yes; conductor 403; anonymous 401', async () => {
    const path = '/api/admin/search/tasks?query=muelle';
    for (const role of ['admin', 'manager', 'gestor'] as const) {
      const { auth } = await makeUser(role);
      expect((await api().get(path).set(auth)).status).toBe(200);
    }
    const { auth } = await makeUser('conductor');
    const res = await api().get(path).set(auth);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: ERR.forbidden });
    expect((await api().get(path)).status).toBe(401);
  });
});

describe('criteria', () => {
  it.each([[{}], [{ search_type: 'trailer' }], [{ query: '   ' }], [{ query: '', date_from: '' }]])(
    '400 Ingresa al menos un criterio de búsqueda for %o',
    async (query) => {
      const res = await api().get('/api/admin/search/tasks').query(query).set(gestor.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: ERR.searchCriteria });
    },
  );

  it('400 when date_to is before date_from, or for a bad type or date', async () => {
    const order = await api()
      .get('/api/admin/search/tasks')
      .query({ date_from: '2026-11-20', date_to: '2026-11-19' })
      .set(gestor.auth);
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ detail: ERR.dateOrder });
    for (const query of [
      { query: 'x', search_type: 'title' },
      { date_from: '2026-02-30' },
      { query: 'x', page: '2' },
    ]) {
      const res = await api().get('/api/admin/search/tasks').query(query).set(gestor.auth);
      expect(res.status).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });
});

describe('matching', () => {
  it("ignores case and accents both ways: 'muelle', 'camion', 'ALMACÉN', 'bascula'", async () => {
    const muelle = await makeTask({ origin: 'Muelle 3', destination: 'Campa A-1' });
    const camion = await makeTask({ origin: 'Campa B-2', destination: 'Zona Camión Sur' });
    const almacen = await makeTask({ origin: 'ALMACEN NORTE', destination: 'Campa C-3' });
    const bascula = await makeTask({ origin: 'Báscula', destination: 'Campa D-4' });

    expect(ids(await search({ query: 'muelle' }))).toEqual([muelle.id]);
    expect(ids(await search({ query: 'camion' }))).toEqual([camion.id]);
    expect(ids(await search({ query: 'CAMIÓN sur' }))).toEqual([camion.id]);
    expect(ids(await search({ query: 'almacén' }))).toEqual([almacen.id]);
    expect(ids(await search({ query: 'bascula' }))).toEqual([bascula.id]);
    expect(ids(await search({ query: 'BÁSC' }))).toEqual([bascula.id]);
    expect(await search({ query: 'camión norte' })).toEqual([]);
  });

  it('folds ñ, and accents written as combining marks, in the rows and in the term alike', async () => {
    const penon = await makeTask({ origin: 'Muelle Peñón', destination: 'Campa A-1' });
    const decomposed = await makeTask({ origin: 'Campa B-2', destination: 'Zona Camio\u0301n' }); // ó as o + ◌́
    expect(ids(await search({ query: 'penon' }))).toEqual([penon.id]);
    expect(ids(await search({ query: 'PEN\u0303O\u0301N' }))).toEqual([penon.id]);
    expect(ids(await search({ query: 'camión' }))).toEqual([decomposed.id]);
    expect(ids(await search({ query: 'zona camion' }))).toEqual([decomposed.id]);
  });

  it('search_type limits the field; all covers id, trailer, origin and destination', async () => {
    const t = await makeTask({ origin: 'Taller', destination: 'Lavadero', trailerId: '1234-BCD' });
    expect(ids(await search({ query: 'lavadero', search_type: 'destination' }))).toEqual([t.id]);
    expect(await search({ query: 'lavadero', search_type: 'origin' })).toEqual([]);
    expect(ids(await search({ query: 'taller', search_type: 'origin' }))).toEqual([t.id]);
    expect(ids(await search({ query: '1234-bc', search_type: 'trailer' }))).toEqual([t.id]);
    expect(await search({ query: 'taller', search_type: 'id' })).toEqual([]);
    // The short id (last 8 characters) as the card shows it, in capitals.
    const shortId = t.id.slice(-8).toUpperCase();
    expect(ids(await search({ query: shortId, search_type: 'id' }))).toEqual([t.id]);
    for (const q of ['lavadero', 'taller', '1234-bcd', shortId])
      expect(ids(await search({ query: q, search_type: 'all' }))).toEqual([t.id]);
    expect(ids(await search({ query: 'taller' }))).toEqual([t.id]); // all is the default
  });

  it('takes % and _ literally', async () => {
    const pct = await makeTask({ origin: 'Campa 100%' });
    await makeTask({ origin: 'Campa 1000' });
    expect(ids(await search({ query: '100%' }))).toEqual([pct.id]);
    expect(await search({ query: '_' })).toEqual([]);
  });

  it('leaves deleted tasks out', async () => {
    const gone = await makeTask({ origin: 'Muelle 9' });
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, gone.id)));
    expect(await search({ query: 'muelle 9' })).toEqual([]);
  });
});

describe('dates, order and cap', () => {
  it('Madrid calendar days, both ends included, on created_at', async () => {
    await makeTask({ createdAt: at('2026-11-19T22:59:00Z'), origin: 'Muelle 1' }); // 23:59 on the 19th
    const first = await makeTask({ createdAt: at('2026-11-19T23:00:00Z'), origin: 'Muelle 1' }); // 00:00 on the 20th
    const last = await makeTask({ createdAt: at('2026-11-21T22:59:59Z'), origin: 'Muelle 1' }); // 23:59 on the 21st
    await makeTask({ createdAt: at('2026-11-21T23:00:00Z'), origin: 'Muelle 1' }); // 00:00 on the 22nd

    expect(ids(await search({ date_from: '2026-11-20', date_to: '2026-11-21' }))).toEqual([
      last.id,
      first.id,
    ]);
    expect(ids(await search({ date_from: '2026-11-21', date_to: '2026-11-21', query: 'muelle' }))).toEqual([
      last.id,
    ]);
    expect(ids(await search({ date_to: '2026-11-20' }))[0]).toBe(first.id);
  });

  it('summer days too: 2026-07-15 starts at 22:00Z the day before', async () => {
    const inside = await makeTask({ createdAt: at('2026-07-14T22:00:00Z') });
    await makeTask({ createdAt: at('2026-07-14T21:59:59Z') });
    expect(ids(await search({ date_from: '2026-07-15', date_to: '2026-07-15' }))).toEqual([inside.id]);
  });

  it(`newest created_at first, at most ${SEARCH_MAX_ROWS} rows`, async () => {
    const base = ago(10 * HOUR);
    const made: TaskRow[] = [];
    for (let i = 0; i < SEARCH_MAX_ROWS + 1; i++)
      made.push(await makeTask({ createdAt: new Date(base.getTime() + i * 1000), origin: 'Campa F-7' }));
    const rows = await search({ query: 'campa f-7' });
    expect(rows).toHaveLength(SEARCH_MAX_ROWS);
    expect(rows[0].id).toBe(made.at(-1)!.id);
    expect(rows.at(-1)!.id).toBe(made[1].id);
  });
});

describe('the search index follows the table', () => {
  it('sees tasks created, edited and deleted after it was built', async () => {
    const edited = await makeTask({ origin: 'Taller', createdAt: ago(3 * HOUR) });
    expect(ids(await search({ query: 'taller' }))).toEqual([edited.id]); // the index is built here

    const created = await makeTask({ origin: 'Taller', createdAt: ago(MIN) });
    const older = await makeTask({ origin: 'Taller', createdAt: ago(5 * HOUR) }); // created late, dated earlier
    expect(ids(await search({ query: 'taller' }))).toEqual([created.id, edited.id, older.id]);

    // An edit, as the tasks service writes it: the row and a history row.
    await tx(async () => {
      await db.update(tasks).set({ origin: 'Almacén Este' }).where(eq(tasks.id, edited.id));
      await db.insert(taskEvents).values({ taskId: edited.id, type: 'updated', at: now() });
    });
    expect(ids(await search({ query: 'taller' }))).toEqual([created.id, older.id]);
    expect(ids(await search({ query: 'almacen este' }))).toEqual([edited.id]);

    await tx(async () => {
      await db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, created.id));
      await db.insert(taskEvents).values({ taskId: created.id, type: 'deleted', at: now() });
    });
    expect(ids(await search({ query: 'taller' }))).toEqual([older.id]);
  });

  it('two searches at once bring the index up to date once: no task twice, none missing', async () => {
    await makeTask({ origin: 'Campa G-2', createdAt: ago(11 * HOUR) });
    await search({ query: 'campa g-2' }); // the index is built here
    const base = ago(10 * HOUR);
    const made: TaskRow[] = [];
    for (let i = 0; i < SEARCH_MAX_ROWS; i++)
      made.push(await makeTask({ createdAt: new Date(base.getTime() + i * 1000), origin: 'Campa G-2' }));
    const newestFirst = made.map((t) => t.id).reverse();

    // Called side by side, both searches find the index behind the table and wait for its refresh.
    const q = { search_type: 'all', query: 'campa g-2' } as const;
    const [one, two] = await Promise.all([searchTasks(q), searchTasks(q)]);
    expect(ids(one)).toEqual(newestFirst);
    expect(ids(two)).toEqual(newestFirst);
    expect(ids(await searchTasks(q))).toEqual(newestFirst);
  });

  it('checks every result against its row: a change made without history never shows a wrong task', async () => {
    const a = await makeTask({ origin: 'Lavadero', createdAt: ago(2 * HOUR) });
    const b = await makeTask({ origin: 'Lavadero', createdAt: ago(HOUR) });
    expect(ids(await search({ query: 'lavadero' }))).toEqual([b.id, a.id]);
    await tx(() => db.update(tasks).set({ origin: 'Campa B-1' }).where(eq(tasks.id, b.id)));
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, a.id)));
    expect(await search({ query: 'lavadero' })).toEqual([]);
  });

  it('fills the page past tasks dropped by that check, keeping the order and the cap', async () => {
    const base = ago(10 * HOUR);
    const made: TaskRow[] = [];
    for (let i = 0; i < SEARCH_MAX_ROWS + 20; i++)
      made.push(await makeTask({ createdAt: new Date(base.getTime() + i * 1000), origin: 'Zona Swap 3' }));
    await search({ query: 'zona swap 3' });
    const newest = made.slice(-10).map((t) => t.id);
    for (const id of newest)
      await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, id)));
    const rows = await search({ query: 'zona swap 3' });
    expect(ids(rows)).toEqual(
      made
        .slice(0, -10)
        .reverse()
        .slice(0, SEARCH_MAX_ROWS)
        .map((t) => t.id),
    );
  });
});

describe('what each result carries', () => {
  it('the whole task with nulls, and where its trailer is now', async () => {
    const driver = await makeUser('conductor', { name: 'Rocío Díaz' });
    const plate = '7788-KLM';
    await makeTask({
      trailerId: plate,
      status: 'finalizada',
      assignedTo: driver.user.id,
      createdAt: ago(5 * HOUR),
      completedAt: ago(4 * HOUR),
      destination: 'Campa A-1',
    });
    const latestMove = await makeTask({
      trailerId: plate,
      status: 'finalizada',
      assignedTo: driver.user.id,
      createdAt: ago(3 * HOUR),
      completedAt: ago(2 * HOUR),
      destination: 'Muelle 7',
    });
    const undone = await makeTask({
      trailerId: plate,
      status: 'finalizada',
      createdAt: ago(90 * MIN),
      completedAt: ago(MIN),
      destination: 'Taller',
    });
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, undone.id)));
    const open = await makeTask({ trailerId: plate, createdAt: ago(30 * MIN), origin: 'Muelle 7' });
    const elsewhere = await makeTask({ trailerId: '0001-BBB', createdAt: ago(20 * MIN) });

    const rows = await search({ query: plate.toLowerCase(), search_type: 'trailer' });
    expect(ids(rows)).toEqual([open.id, latestMove.id, expect.any(String)]);
    for (const r of rows) {
      expect(r.trailer_last_location).toBe('Muelle 7');
      expect(r.trailer_last_location_at).toBe(latestMove.completedAt!.toISOString());
    }
    expect(rows[0]).toEqual({
      id: open.id,
      title: 'Mover',
      description: null,
      origin: 'Muelle 7',
      destination: 'Campa A-12',
      origin_location_id: null,
      destination_location_id: null,
      trailer_id: plate,
      load_state_after: null,
      due_at: null,
      late_s: null,
      proof: null,
      dropped_at_location_id: null,
      dropped_at_location_name: null,
      external_ref: null,
      created_by_client_id: null,
      priority: 'normal',
      status: 'bolsa_trabajo',
      vehicle_type: 'semiremolque',
      assigned_to: null,
      assigned_to_name: null,
      created_by: null,
      created_by_name: null,
      created_at: open.createdAt.toISOString(),
      updated_at: open.updatedAt.toISOString(),
      assigned_at: null,
      completed_at: null,
      status_since: open.statusSince.toISOString(),
      return_reason: null,
      on_hold: false,
      hold_reason: null,
      hold_source: null,
      last_return_reason: null,
      assignee_online: null,
      assignee_offline_since: null,
      trailer: DEFAULT_TRAILER_MARKS,
      version: 1,
      trailer_last_location: 'Muelle 7',
      trailer_last_location_at: latestMove.completedAt!.toISOString(),
      timeline: [],
    });
    expect(rows[1].assigned_to_name).toBe('Rocío Díaz');

    const [never] = await search({ query: '0001-bbb' });
    expect(never.id).toBe(elsewhere.id);
    expect(never.trailer_last_location).toBeNull();
    expect(never.trailer_last_location_at).toBeNull();
  });

  it('each trailer of one page where it is now: one per trailer, never another trailer’s place', async () => {
    const moved = async (trailerId: string, destination: string, hoursAgo: number) =>
      makeTask({
        trailerId,
        status: 'finalizada',
        createdAt: ago((hoursAgo + 1) * HOUR),
        completedAt: ago(hoursAgo * HOUR),
        origin: 'Lavadero Norte',
        destination,
      });
    await moved('5501-AAA', 'Muelle 2', 6);
    const a = await moved('5501-AAA', 'Campa B-4', 3);
    const b = await moved('5502-BBB', 'Zona Swap 5', 2);
    await moved('5502-BBB', 'Muelle 9', 5);
    const c = await makeTask({ trailerId: '5503-CCC', origin: 'Lavadero Norte', createdAt: ago(MIN) });

    const rows = await search({ query: 'lavadero norte', search_type: 'origin' });
    const where = new Map(
      rows.map((r) => [r.trailer_id, [r.trailer_last_location, r.trailer_last_location_at]]),
    );
    expect(rows).toHaveLength(5);
    expect(Object.fromEntries(where)).toEqual({
      '5501-AAA': ['Campa B-4', a.completedAt!.toISOString()],
      '5502-BBB': ['Zona Swap 5', b.completedAt!.toISOString()],
      [c.trailerId]: [null, null],
    });
  });

  it('the history in time order with actor and driver names, for Creada / Asignada / Finalizada', async () => {
    const creator = await makeUser('gestor', { name: 'Marta Gil' });
    const driver = await makeUser('conductor', { name: 'Iker Sanz' });
    const created = ago(2 * HOUR);
    const task = await makeTask({
      createdBy: creator.user.id,
      createdAt: created,
      status: 'finalizada',
      assignedTo: driver.user.id,
      assignedAt: new Date(created.getTime() + 5 * MIN),
      completedAt: new Date(created.getTime() + 30 * MIN),
    });
    const event = (type: 'created' | 'assigned' | 'completed', actorId: string | null, afterMin: number) =>
      tx(() =>
        db.insert(taskEvents).values({
          taskId: task.id,
          type,
          actorId,
          driverId: type === 'created' ? null : driver.user.id,
          at: new Date(created.getTime() + afterMin * MIN),
        }),
      );
    await event('completed', driver.user.id, 30);
    await event('created', creator.user.id, 0);
    await event('assigned', null, 5); // the engine assigned it: no actor

    const [row] = await search({ query: task.id.slice(-8) });
    expect(row.created_by_name).toBe('Marta Gil');
    expect(row.timeline).toEqual([
      { type: 'created', at: created.toISOString(), actor_name: 'Marta Gil', driver_name: null },
      {
        type: 'assigned',
        at: new Date(created.getTime() + 5 * MIN).toISOString(),
        actor_name: null,
        driver_name: 'Iker Sanz',
      },
      {
        type: 'completed',
        at: new Date(created.getTime() + 30 * MIN).toISOString(),
        actor_name: 'Iker Sanz',
        driver_name: 'Iker Sanz',
      },
    ]);
  });
});
