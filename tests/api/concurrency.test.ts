// Races over a real listening server (CONTRACT §3, §5): many HTTP requests in flight at once against
// one task, one driver, one pending user. Exactly one wins where only one may; the losers get a 4xx
// with a detail, never a 500; and the database invariants hold afterwards.
// The requests of a race meet at the writer: a transaction of the test holds it until every request has
// reached the server and done what it does before its own transaction (SQLite runs a request's
// transaction in the very turn the request arrives, so without the hold they would merely queue, each
// seeing its predecessors' commits). Every request of a race has then read before any has written: a
// decision read outside its transaction, or a write not checked against what it read, shows as two
// winners (PostgreSQL's transactions interleave by themselves; the hold changes nothing there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@shared/schemas';
import { ERR } from '@shared/labels';
import { query } from '../../server/db';
import { makeUser, setupServer, sleep, tx, type TestUser } from '../helpers/context';

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
/** Swap tasks: never auto-assigned, so only the requests of the test move them. */
async function swapTask(): Promise<Task> {
  const res = await server
    .api()
    .post('/api/tasks')
    .set(gestor.auth)
    .send({
      title: 'Mover',
      origin: 'Muelle 2',
      destination: 'Campa C',
      trailer_id: `CC-${++seq}`,
      vehicle_type: 'swap',
    });
  expect(res.status).toBe(201);
  return res.body;
}
const driver = () => makeUser('conductor', { taskTypes: ['swap'] });
const drivers = (n: number) => Promise.all(Array.from({ length: n }, driver));
/** The one row of a raw query. */
const one = async <T>(text: string, params: unknown[] = []) => (await query<T>(text, params))[0];
const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

type Answer = { status: number; body: { detail?: string } };

/** Runs fn while a transaction of the test holds the writer; resolves once the writer is free again. */
async function holdingWriter<T>(fn: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const hold = tx(async () => {
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

/** The requests, all in flight at once, meeting at the held writer (above); every answer is checked. */
async function race(requests: (() => PromiseLike<Answer>)[]): Promise<Answer[]> {
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
    });
  } finally {
    server.http.off('request', onRequest);
  }
  const res = await answers!;
  for (const r of res) {
    expect(r.status).toBeLessThan(500);
    if (r.status >= 400) expect(typeof r.body.detail).toBe('string');
  }
  return res;
}
const all = async (requests: (() => PromiseLike<Answer>)[]) => (await race(requests)).map((r) => r.status);

describe('concurrent requests', () => {
  it('50 drivers self-assign one task at once: one 200, 49 × 409', async () => {
    const task = await swapTask();
    const racers = await drivers(50);
    const answers = await race(
      racers.map((d) => () => server.api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth)),
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
      const statuses = await all([
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
      ]);
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

  it('a driver punching entrada ten times at once clocks in once; salida likewise', async () => {
    const d = await driver();
    for (const type of ['entrada', 'salida']) {
      const statuses = await all(
        Array.from(
          { length: 10 },
          () => () => server.api().post(`/api/timeclock/punch?clock_type=${type}`).set(d.auth),
        ),
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

  it('twenty approvals of one pending user at once: one 200, the rest 409', async () => {
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
    );
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(19);
  });
});

describe('invariants after the races', () => {
  it('at most one active task per driver, and every en_proceso task has an assignee', async () => {
    const doubles = await query(
      "SELECT assigned_to, count(*) AS n FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL GROUP BY assigned_to HAVING n > 1",
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
    expect(await one('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
  });
});
