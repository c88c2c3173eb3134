// Races over a real listening server (CONTRACT §3, §5): many HTTP requests in flight at once against
// one task, one driver, one pending user. Exactly one wins where only one may; the losers get a 4xx
// with a detail, never a 500; and the database invariants hold afterwards.
// The requests of a race meet at a hold of the test's own transaction, kept until every request has
// reached the server and done what it does before its own transaction. SQLite: the hold is the writer
// (a request's transaction runs in the very turn it arrives, so without it they would merely queue,
// each seeing its predecessors' commits); every request has then read before any has written, and a
// decision read outside its transaction shows as two winners. PostgreSQL, whose transactions really
// run side by side: the hold is the rows the race is about (FOR UPDATE), so that every request's
// transaction is under way before any goes on; each race then proves the lock that serialises its
// decision. A move that locks the task it reads (liveTask) waits at that read and decides on the row as
// the winner left it; one that does not would decide on the old row, wait at its write and answer "La
// tarea acaba de cambiar" (its version check) where SQLite gives the rule's own answer — race()
// refuses that detail. Rounds of the engine released together find each other's tasks and drivers
// only because they take turns (the round lock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@shared/schemas';
import { ERR } from '@shared/labels';
import { isPostgres, query } from '../../server/db';
import { presence } from '../../server/services/presence';
import { assignmentsSettled } from '../../server/tasks/assignment';
import { makePunch, makeUser, setupServer, sleep, tx, type TestUser } from '../helpers/context';

let server: Awaited<ReturnType<typeof setupServer>>;
let gestor: TestUser;
let admin: TestUser;
beforeAll(async () => {
  server = await setupServer();
  gestor = await makeUser('gestor');
  admin = await makeUser('admin');
});
afterAll(async () => {
  await server.close();
});

let seq = 0;
/** A new pool task of the type, created by the gestor. */
const createTask = (vehicleType: 'swap' | 'semiremolque') => async (): Promise<Task> => {
  const res = await server.api().post('/api/tasks').set(gestor.auth).send(newTask(vehicleType));
  expect(res.status).toBe(201);
  return res.body;
};
const newTask = (vehicleType: 'swap' | 'semiremolque') => ({
  title: 'Mover',
  origin: 'Muelle 2',
  destination: 'Campa C',
  trailer_id: `CC-${++seq}`,
  vehicle_type: vehicleType,
});
/** Swap tasks: never auto-assigned, so only the requests of the test move them. */
const swapTask = createTask('swap');
const driver = () => makeUser('conductor', { taskTypes: ['swap'] });
const drivers = (n: number) => Promise.all(Array.from({ length: n }, driver));
/** The one row of a raw query. */
const one = async <T>(text: string, params: unknown[] = []) => (await query<T>(text, params))[0];
const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

type Answer = { status: number; body: { detail?: string } };

/** Rows a race is about: held by the test's transaction during the race on PostgreSQL. */
interface Rows {
  tasks?: string[];
  users?: string[];
}

/**
 * Runs fn while a transaction of the test holds the writer (SQLite) or the rows (PostgreSQL: FOR
 * UPDATE); resolves once they are free again.
 */
async function holdingWriter<T>(fn: () => Promise<T>, rows: Rows = {}): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const hold = tx(async () => {
    if (isPostgres)
      for (const [table, ids] of Object.entries(rows) as [string, string[]][])
        await query(`SELECT id FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) FOR UPDATE`, ids);
    held();
    await released;
  });
  await holding;
  try {
    return await fn();
  } finally {
    release();
    await hold;
  }
}

/**
 * The requests, all in flight at once, meeting at the held writer or rows (above); every answer is
 * checked.
 */
async function race(requests: (() => PromiseLike<Answer>)[], rows: Rows = {}): Promise<Answer[]> {
  let arrived = 0;
  const onRequest = () => void arrived++;
  server.http.on('request', onRequest);
  let answers: Promise<Answer[]> | undefined;
  try {
    await holdingWriter(async () => {
      answers = Promise.all(requests.map((r) => r()));
      while (arrived < requests.length) await sleep(5);
      // Bodies parsed, users authenticated, whatever precedes the transaction done.
      await sleep(100);
    }, rows);
  } finally {
    server.http.off('request', onRequest);
  }
  const res = await answers!;
  for (const r of res) {
    expect(r.status).toBeLessThan(500);
    if (r.status >= 400) expect(typeof r.body.detail).toBe('string');
    // No request of a race names a version: each is decided on the row as the previous one left it.
    expect(r.body.detail).not.toBe(ERR.taskChangedMeanwhile);
  }
  return res;
}
const all = async (requests: (() => PromiseLike<Answer>)[], rows: Rows = {}) =>
  (await race(requests, rows)).map((r) => r.status);

/** Drivers the engine may choose (online, clocked in, the automatic type), each busy with a task. */
async function busyDrivers(n: number): Promise<{ drivers: TestUser[]; tasks: string[] }> {
  const list = await Promise.all(
    Array.from({ length: n }, () => makeUser('conductor', { online: true, taskTypes: ['semiremolque'] })),
  );
  const tasks: string[] = [];
  for (const d of list) {
    // Through the API, so that every version has its event (the invariants below): created while the
    // driver is not clocked in yet (no round gives it away), claimed, then the clock-in.
    const task = await createTask('semiremolque')();
    expect((await server.api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth)).status).toBe(200);
    tasks.push(task.id);
    await makePunch(d.user.id, 'entrada');
    // Present already: their requests in the race start no round of their own (a driver coming
    // online does), which would find a missed task afterwards and hide the race.
    expect((await server.api().get('/api/tasks/my-active').set(d.auth)).status).toBe(200);
  }
  await presence.settled();
  await assignmentsSettled();
  return { drivers: list, tasks };
}
const complete = (d: TestUser, taskId: string) => () =>
  server.api().post(`/api/tasks/${taskId}/complete`).set(d.auth);
const rowsOf = (ids: string[]) =>
  query<{ id: string; status: string; assigned_to: string | null }>(
    `SELECT id, status, assigned_to FROM tasks WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );

describe('concurrent requests', () => {
  it('50 drivers self-assign one task at once: one 200, 49 × 409', async () => {
    const task = await swapTask();
    const racers = await drivers(50);
    const answers = await race(
      racers.map((d) => () => server.api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth)),
      { tasks: [task.id] },
    );
    const statuses = answers.map((r) => r.status);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(49);
    // Each loser decided on the task as the winner left it (read inside its own transaction).
    for (const r of answers) if (r.status === 409) expect(r.body.detail).toBe(ERR.alreadyAssigned);
    const winner = racers[statuses.indexOf(200)];
    const row = await one('SELECT status, assigned_to FROM tasks WHERE id = ?', [task.id]);
    expect(row).toEqual({ status: 'en_proceso', assigned_to: winner.user.id });
  });

  it('one driver self-assigns ten tasks at once: only one becomes theirs', async () => {
    const tasks = await Promise.all(Array.from({ length: 10 }, swapTask));
    const d = await driver();
    const statuses = await all(
      tasks.map((t) => () => server.api().post(`/api/tasks/${t.id}/self-assign`).set(d.auth)),
      { tasks: tasks.map((t) => t.id) },
    );
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(9);
    const active = await one<{ n: number }>(
      "SELECT count(*) AS n FROM tasks WHERE assigned_to = ? AND status = 'en_proceso'",
      [d.user.id],
    );
    expect(active!.n).toBe(1);
  });

  it('complete, return, PUT and DELETE race on one task: every answer is a 2xx/404/409', async () => {
    for (let round = 0; round < 3; round++) {
      const task = await swapTask();
      const d = await driver();
      expect((await server.api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth)).status).toBe(200);
      const url = `/api/tasks/${task.id}`;
      const statuses = await all(
        [
          ...Array.from({ length: 4 }, () => () => server.api().post(`${url}/complete`).set(d.auth)),
          ...Array.from({ length: 4 }, () => () => server.api().post(`${url}/return`).set(d.auth).send({})),
          ...Array.from(
            { length: 3 },
            () => () => server.api().put(url).set(gestor.auth).send({ priority: 'high' }),
          ),
          ...Array.from(
            { length: 3 },
            () => () => server.api().put(url).set(admin.auth).send({ status: 'finalizada' }),
          ),
          ...Array.from({ length: 2 }, () => () => server.api().delete(url).set(gestor.auth)),
        ],
        { tasks: [task.id] },
      );
      for (const s of statuses) expect([200, 404, 409]).toContain(s);
      // A repeated completion is answered 200 (a driver's retry) but happens once; a task is returned
      // or deleted once at most, and a returned task cannot be completed by the driver any more.
      const events = await query<{ type: string; driver_id: string | null }>(
        'SELECT type, driver_id FROM task_events WHERE task_id = ? ORDER BY id',
        [task.id],
      );
      const n = (type: string) => events.filter((e) => e.type === type).length;
      expect(n('completed')).toBeLessThanOrEqual(1);
      expect(n('returned')).toBeLessThanOrEqual(1);
      expect(n('deleted')).toBeLessThanOrEqual(1);
      const credited = events.some((e) => e.type === 'completed' && e.driver_id === d.user.id);
      expect(credited && n('returned') === 1).toBe(false);
      expect(count(statuses.slice(14), 200)).toBe(n('deleted'));
    }
  });

  it('ten staff edits of one task at once all apply, one after the other', async () => {
    const task = await swapTask();
    const statuses = await all(
      Array.from(
        { length: 10 },
        (_, i) => () =>
          server
            .api()
            .put(`/api/tasks/${task.id}`)
            .set(i % 2 ? gestor.auth : admin.auth)
            .send({ description: `Nota ${i}`, priority: i % 3 ? 'high' : 'low' }),
      ),
      { tasks: [task.id] },
    );
    expect(statuses).toEqual(Array(10).fill(200));
    const row = await one<{ version: number }>('SELECT version FROM tasks WHERE id = ?', [task.id]);
    expect(row!.version).toBe(11);
  });

  it('drivers claiming and staff holding one pool task at once: the claim or the hold, never both', async () => {
    for (let round = 0; round < 3; round++) {
      const task = await swapTask();
      const racers = await drivers(8);
      const claim = (d: TestUser) => () => server.api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth);
      const hold = () => server.api().put(`/api/tasks/${task.id}`).set(gestor.auth).send({ on_hold: true });
      // Interleaved, so that either may reach the task first: claim, hold, claim, hold… then claims.
      const kinds = racers.map((_, i) => (i < 4 ? ['claim', 'hold'] : ['claim'])).flat();
      let next = 0;
      const answers = await race(
        kinds.map((k) => (k === 'hold' ? hold : claim(racers[next++]))),
        { tasks: [task.id] },
      );
      const of = (kind: string) => answers.filter((_, i) => kinds[i] === kind);
      const [claims, holds] = [of('claim'), of('hold')];
      const row = await one<{ status: string; on_hold: unknown }>(
        'SELECT status, on_hold FROM tasks WHERE id = ?',
        [task.id],
      );
      const state = { status: row!.status, held: Boolean(row!.on_hold) };
      if (claims.some((r) => r.status === 200)) {
        // A claim came first: the other claims found it taken, every hold found it out of the pool.
        expect(claims.filter((r) => r.status === 200)).toHaveLength(1);
        for (const r of claims) if (r.status !== 200) expect(r.body.detail).toBe(ERR.alreadyAssigned);
        for (const r of holds) expect(r.body.detail).toBe(ERR.holdOnlyPool);
        expect(state).toEqual({ status: 'en_proceso', held: false });
      } else {
        // A hold came first: the other holds change nothing (200), every claim finds the task held.
        expect(holds.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        for (const r of claims) expect(r.body.detail).toBe(ERR.taskOnHold);
        expect(state).toEqual({ status: 'bolsa_trabajo', held: true });
      }
    }
  });

  it('tasks entering the pool while their drivers finish others: none is left waiting for a free driver', async () => {
    const n = 10;
    const { drivers: busy, tasks: held } = await busyDrivers(n);
    // Swap tasks wait in the pool; staff turn each into an automatic type, the engine's to give.
    const waiting = await Promise.all(Array.from({ length: n }, swapTask));
    // Each completion frees a driver and runs a round; each edit puts a task in the engine's pool and
    // runs one. A round that read before another's commit would see neither its task nor its driver.
    const answers = await race(
      [
        ...busy.map((d, i) => complete(d, held[i])),
        ...waiting.map(
          (t) => () =>
            server.api().put(`/api/tasks/${t.id}`).set(gestor.auth).send({ vehicle_type: 'semiremolque' }),
        ),
      ],
      { tasks: [...held, ...waiting.map((t) => t.id)] },
    );
    expect(answers.map((r) => r.status)).toEqual(Array(2 * n).fill(200));
    const rows = await rowsOf(waiting.map((t) => t.id));
    expect(rows.map((r) => r.status)).toEqual(Array(n).fill('en_proceso'));
    expect(new Set(rows.map((r) => r.assigned_to))).toEqual(new Set(busy.map((d) => d.user.id)));
  });

  it('a driver punching entrada ten times at once clocks in once; salida likewise', async () => {
    const d = await driver();
    for (const type of ['entrada', 'salida']) {
      const statuses = await all(
        Array.from(
          { length: 10 },
          () => () => server.api().post(`/api/timeclock/punch?clock_type=${type}`).set(d.auth),
        ),
        { users: [d.user.id] },
      );
      expect(count(statuses, 200)).toBe(1);
      expect(count(statuses, 409)).toBe(9);
    }
    const rows = await query<{ clock_type: string }>(
      'SELECT clock_type FROM punches WHERE user_id = ? ORDER BY timestamp',
      [d.user.id],
    );
    expect(rows.map((r) => r.clock_type)).toEqual(['entrada', 'salida']);
  });

  it('twenty decisions on one pending user at once: one 200, the rest refused', async () => {
    const pending = await makeUser('conductor', { approved: false });
    const statuses = await all(
      Array.from(
        { length: 20 },
        (_, i) => () =>
          server
            .api()
            .post('/api/admin/approve-user')
            .set(admin.auth)
            .send({ user_id: pending.user.id, approved: i % 4 !== 3 }),
      ),
      { users: [pending.user.id] },
    );
    expect(count(statuses, 200)).toBe(1);
    // An approval first: the others find the user decided (409). A rejection first (PostgreSQL runs them
    // side by side, any may win): the account is gone, and the others find no such user (404).
    const kept = await one<{ id: string }>('SELECT id FROM users WHERE id = ?', [pending.user.id]);
    expect(count(statuses, kept ? 409 : 404)).toBe(19);
  });
});

describe('invariants after the races', () => {
  it('at most one active task per driver, and every en_proceso task has an assignee', async () => {
    const doubles = await query(
      "SELECT assigned_to, count(*) AS n FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL GROUP BY assigned_to HAVING count(*) > 1",
    );
    expect(doubles).toEqual([]);
    const orphan = await one<{ n: number }>(
      "SELECT count(*) AS n FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL AND (assigned_to IS NULL OR assigned_to NOT IN (SELECT id FROM users WHERE role = 'conductor' AND deleted_at IS NULL))",
    );
    expect(orphan!.n).toBe(0);
    const pooledWithDriver = await one<{ n: number }>(
      "SELECT count(*) AS n FROM tasks WHERE status = 'bolsa_trabajo' AND assigned_to IS NOT NULL",
    );
    expect(pooledWithDriver!.n).toBe(0);
  });

  it('movements_count = completions credited − reopenings (no reset happened)', async () => {
    const rows = await query<{ count: number; completed: number; reopened: number; credited: number }>(
      `SELECT u.id, u.movements_count AS count,
           (SELECT count(*) FROM task_events e WHERE e.driver_id = u.id AND e.type = 'completed') AS completed,
           (SELECT count(*) FROM task_events e WHERE e.driver_id = u.id AND e.type = 'reopened') AS reopened,
           (SELECT count(*) FROM tasks t WHERE t.credited_to = u.id AND t.status = 'finalizada') AS credited
         FROM users u WHERE u.role = 'conductor'`,
    );
    expect(rows.some((r) => r.completed > 0)).toBe(true);
    for (const r of rows) {
      expect(r.count).toBe(r.completed - r.reopened);
      expect(r.count).toBe(r.credited);
    }
  });

  it("a task's version counts its changes (one task_events row per change)", async () => {
    const mismatched = await query(
      `SELECT t.id, t.version, (SELECT count(*) FROM task_events e WHERE e.task_id = t.id) AS events
         FROM tasks t WHERE t.version != (SELECT count(*) FROM task_events e WHERE e.task_id = t.id)`,
    );
    expect(mismatched).toEqual([]);
  });

  it("the database's own consistency check finds nothing wrong", async () => {
    if (!isPostgres) {
      expect(await one('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
      return;
    }
    // PostgreSQL: amcheck verifies every B-tree index, and that each row of its table is in it.
    await query('CREATE EXTENSION IF NOT EXISTS amcheck');
    const checked = await query<{ index: string }>(
      `SELECT c.relname AS index, bt_index_check(c.oid, true)
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
         JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE a.amname = 'btree' AND s.nspname = 'public'`,
    );
    expect(checked.map((c) => c.index)).toEqual(
      expect.arrayContaining(['tasks_active_driver', 'tasks_open_trailer']),
    );
  });
});
