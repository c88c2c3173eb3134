// Reads after writes on many nodes (CONTRACT §23): two real nodes on one PostgreSQL; a write answered by A,
// then at once a read served by B, shows the write — the figures, the online drivers, the rankings, the
// staff's board (its ETag / 304 path too) and the yard. Each check first reads through B, so that B has
// whatever it keeps of that answer, and runs several times in a row (well within a second): a cache
// kept for a second would serve the read before the write, and fail.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESENCE_WINDOW_MS } from '@shared/constants';
import type { DashboardStats, OnlineDriver, RankingEntry, Task, YardLocation } from '@shared/schemas';
import {
  advanceClock,
  login,
  makeAccounts,
  startNodes,
  type ClusterNode,
  type Nodes,
} from '../helpers/nodes';
import { adminToken, api, cleanup, createTask, taskBody } from './harness';

const ROUNDS = 5;
let A: ClusterNode;
let B: ClusterNode;
let nodes: Nodes;
let admin: string;

beforeAll(async () => {
  nodes = await startNodes(['A', 'B']);
  [A, B] = nodes.nodes;
  admin = await adminToken(A.url);
}, 60_000);
afterAll(async () => {
  await nodes?.close();
  await cleanup();
});

async function get<T>(url: string, route: string, token = admin): Promise<T> {
  const res = await api<T>(url, route, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** A write through A that must answer `status`. */
async function write(route: string, method: string, body?: unknown, status = 200): Promise<void> {
  const res = await api<{ detail?: string }>(A.url, route, { method, token: admin, body });
  expect(res.status, res.body?.detail).toBe(status);
}

const stats = (url: string) => get<DashboardStats>(url, '/dashboard/stats');
const pending = async (url: string) => (await stats(url)).workload_alert.metrics.pending_tasks;
const onlineIds = async (url: string) =>
  (await get<OnlineDriver[]>(url, '/dashboard/online-drivers')).map((d) => d.id);

/** GET /api/tasks as a browser revalidates it: status, ETag and (on 200) the tasks. */
async function board(url: string, etag?: string): Promise<{ status: number; etag: string; tasks: Task[] }> {
  const res = await fetch(`${url}/api/tasks`, {
    // fetch() adds `Cache-Control: no-cache` to a conditional request that says nothing of it (which
    // Express then answers in full): a browser revalidating says max-age=0.
    headers: {
      authorization: `Bearer ${admin}`,
      ...(etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {}),
    },
  });
  const text = await res.text();
  return {
    status: res.status,
    etag: res.headers.get('etag') ?? '',
    tasks: text ? (JSON.parse(text) as Task[]) : [],
  };
}

/**
 * B's board once it holds still — its ETag answers 304 — and is kept on B. (Background work, such as
 * the presence sweep or the assignment engine's timer, may move it now and then.)
 */
const stillBoard = () =>
  vi.waitFor(
    async () => {
      const first = await board(B.url);
      expect(first.status).toBe(200);
      expect((await board(B.url, first.etag)).status).toBe(304);
      return first;
    },
    { timeout: 10_000, interval: 50 },
  );

let trailers = 0;
const trailer = () => `RAW-${++trailers}`;

describe('a write answered by A, then a read served by B', () => {
  it('the figures: a new task is counted in bolsa_trabajo, a held one leaves pending_tasks; one alert', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const before = await stats(B.url);
      const created = await createTask(A.url, admin, trailer());
      expect(created.status).toBe(201);
      expect((await stats(B.url)).bolsa_trabajo).toBe(before.bolsa_trabajo + 1);

      const waiting = await pending(B.url);
      await write(`/tasks/${created.body.id}`, 'PUT', { on_hold: true });
      expect(await pending(B.url)).toBe(waiting - 1);
      // The alert's status and when it began: one answer, whichever node gives it.
      expect((await stats(B.url)).workload_alert).toEqual((await stats(A.url)).workload_alert);
    }
  });

  it('the online drivers: a deleted one is gone; one coming online is counted available', async () => {
    const drivers = await makeAccounts(A.url, admin, ROUNDS, 'conductor', ['swap']);
    const tokens = await Promise.all(drivers.map((d) => login(A.url, d.email)));
    // Clocked in through A; then, past the request window, nobody holds them online.
    for (const token of tokens)
      expect((await api(A.url, '/timeclock/punch?clock_type=entrada', { method: 'POST', token })).status).toBe(200);
    await advanceClock(A.url, PRESENCE_WINDOW_MS + 60_000);
    for (const [i, driver] of drivers.entries()) {
      const before = await stats(B.url);
      expect(await onlineIds(B.url)).not.toContain(driver.id);
      // Any request of theirs brings them online, before it answers.
      await get(A.url, '/timeclock/status', tokens[i]);
      expect(await onlineIds(B.url)).toContain(driver.id);
      const after = await stats(B.url);
      expect(after.online_drivers).toBe(before.online_drivers + 1);
      expect(after.available_drivers).toBe(before.available_drivers + 1);

      await write(`/admin/delete-user/${driver.id}`, 'DELETE');
      expect(await onlineIds(B.url)).not.toContain(driver.id);
      expect((await stats(B.url)).online_drivers).toBe(before.online_drivers);
    }
  }); // prettier-ignore

  it('the rankings: a driver approved through A is ranked by B', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const email = `ranked-${i}@nodos.test`;
      const reg = await api<{ user: { id: string } }>(A.url, '/auth/register', {
        method: 'POST',
        body: { email, password: 'clave-de-los-nodos-1234', name: `Ranked ${i}`, role: 'conductor' },
      });
      expect(reg.status).toBe(201);
      const ranked = async () => (await get<RankingEntry[]>(B.url, '/dashboard/rankings')).map((r) => r.id);
      expect(await ranked()).not.toContain(reg.body.user.id);
      await write('/admin/approve-user', 'POST', { user_id: reg.body.user.id, approved: true });
      expect(await ranked()).toContain(reg.body.user.id);
    }
  });

  it("the staff's board: a new task and a hold, with and without the ETag B gave before", async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const before = await stillBoard();
      const created = await createTask(A.url, admin, trailer());
      expect(created.status).toBe(201);
      const revalidated = await board(B.url, before.etag);
      expect(revalidated.status).toBe(200);
      expect(revalidated.tasks.map((t) => t.id)).toContain(created.body.id);

      await write(`/tasks/${created.body.id}`, 'PUT', { on_hold: true });
      const held = await board(B.url);
      expect(held.etag).not.toBe(revalidated.etag);
      expect(held.tasks.find((t) => t.id === created.body.id)).toMatchObject({ on_hold: true });
    }
  });

  it('the yard: a new place, and a task heading to it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const code = `RAW-CAMPA-${i}`;
      const yard = async () => (await get<YardLocation[]>(B.url, '/yard')).find((l) => l.code === code);
      expect(await yard()).toBeUndefined();
      const place = await api<{ id: string }>(A.url, '/admin/locations', {
        method: 'POST',
        token: admin,
        body: { code, name: `Campa ${i}`, kind: 'campa', zone: 'Norte', capacity: 2, x: 40 + i, y: 40 },
      });
      expect(place.status).toBe(201);
      expect(await yard()).toMatchObject({ id: place.body.id, incoming: [], free: 2 });

      const task = await api<{ id: string }>(A.url, '/tasks', {
        method: 'POST',
        token: admin,
        body: { ...taskBody(trailer()), destination_location_id: place.body.id },
      });
      expect(task.status).toBe(201);
      expect((await yard())?.incoming.map((t) => t.task_id)).toEqual([task.body.id]);
    }
  });
});
