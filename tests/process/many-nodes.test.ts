// Many nodes on one PostgreSQL (CONTRACT §18, issue 17): two real server processes on one database, each
// on its own port, as a load balancer sees them. What one node does reaches the sockets of the other
// (events, revocations, the test clock's expiry); a race run through both has one winner; presence is the
// cluster's, not a node's; a node killed takes its users offline through the others; and behind the
// cluster's proxy, the sockets of a killed node come back through the other and miss nothing.
import { io as ioClient } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESENCE_WINDOW_MS, STATS_COALESCE_MS, TOKEN_TTL_MS } from '@shared/constants';
import { REVOKE_MESSAGES } from '@shared/events';
import { ERR } from '@shared/labels';
import type { AdminUser, DashboardStats, DriverAnalyticsRow, OnlineDriver, Task } from '@shared/schemas';
import { NODE_TIMEOUT_MS, PRESENCE_SWEEP_MS } from '../../server/services/presence';
import { startProxy, type RunningProxy } from '../../scripts/cluster/proxy';
import { collect, connectSocket, nextEvent, nextMatching, type TestSocket } from '../helpers/context';
import {
  advanceClock,
  appName,
  killNode,
  login,
  makeAccounts,
  socketsOn,
  startNodes,
  type ClusterNode,
  type Nodes,
} from '../helpers/nodes';
import { adminToken, api, cleanup, createTask } from './harness';

const MINUTE = 60_000;
const sockets: TestSocket[] = [];
const clusters: Nodes[] = [];
let proxy: RunningProxy | undefined;

afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all(clusters.map((c) => c.close()));
  await cleanup();
});

async function cluster(): Promise<[ClusterNode, ClusterNode, Nodes]> {
  const c = await startNodes(['A', 'B']);
  clusters.push(c);
  return [c.nodes[0], c.nodes[1], c];
}

/** A socket (WebSocket only, no reconnection) on the node, closed after the test. */
async function open(url: string, token: string): Promise<TestSocket> {
  const socket = await connectSocket(url, token);
  sockets.push(socket);
  return socket;
}

/** The reason of the socket's next disconnect. */
const disconnected = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

/** `promise`, or a failure naming `what` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function get<T>(url: string, route: string, token: string): Promise<T> {
  const res = await api<T>(url, route, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** The user as the admin's list on that node shows them. */
async function listed(url: string, admin: string, id: string): Promise<AdminUser> {
  const user = (await get<AdminUser[]>(url, '/admin/users', admin)).find((u) => u.id === id);
  expect(user).toBeDefined();
  return user!;
}

const onlineMinutes = async (url: string, admin: string, id: string) =>
  (await get<DriverAnalyticsRow[]>(url, '/admin/analytics/drivers', admin)).find((r) => r.id === id)!
    .total_time_online_24h;

describe('two nodes on one PostgreSQL', () => {
  let A: ClusterNode;
  let B: ClusterNode;
  let nodes: Nodes;
  beforeAll(async () => {
    [A, B, nodes] = await cluster();
  }, 60_000);

  it('a task created through A reaches a manager socket on B within 1 s', async () => {
    const admin = await adminToken(A.url);
    const [manager] = await makeAccounts(A.url, admin, 1, 'manager');
    const socket = await open(B.url, await login(B.url, manager.email));
    const created = nextMatching(socket, 'task:created', (p) => p.task.trailer_id === 'NOD-1', 1000);
    const res = await createTask(A.url, admin, 'NOD-1');
    expect(res.status).toBe(201);
    expect((await created).task.id).toBe(res.body.id);
  });

  it("the figures of a change made through A, where no board is open, reach a manager's board on B", async () => {
    const admin = await adminToken(A.url);
    const [manager] = await makeAccounts(A.url, admin, 1, 'manager');
    const token = await login(B.url, manager.email);
    const socket = await open(B.url, token);
    // B's own push of the figures (the manager coming online) is past: only A can push the next.
    await new Promise((resolve) => setTimeout(resolve, 2 * STATS_COALESCE_MS));
    const before = await get<DashboardStats>(B.url, '/dashboard/stats', token);
    const figures = nextMatching(
      socket,
      'stats:updated',
      (p) => p.stats.bolsa_trabajo === before.bolsa_trabajo + 1,
      2000,
    );
    const res = await createTask(A.url, admin, 'NOD-FIG');
    expect(res.status).toBe(201);
    // A manager is shown no pending registrations, whatever the admin's figure.
    expect((await figures).stats.pending_users).toBe(0);
  });

  it('50 drivers, half on each node, race for one swap task: one 200, 49 × 409', async () => {
    const admin = await adminToken(A.url);
    const drivers = await makeAccounts(A.url, admin, 50, 'conductor', ['swap']);
    const task = await createTask(A.url, admin, 'NOD-RACE');
    expect(task.status).toBe(201);
    const racers = drivers.map((d, i) => ({ ...d, url: i < 25 ? A.url : B.url }));
    const tokens = await Promise.all(racers.map((r) => login(r.url, r.email)));

    // The task's row is held while the claims arrive: every node's transactions meet at its lock, and
    // each decides on the row as the one before left it.
    const holder = await nodes.pool.connect();
    let answers: { status: number; body: Task & { detail?: string } }[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM tasks WHERE id = $1 FOR UPDATE', [task.body.id]);
      const racing = Promise.all(
        racers.map((r, i) =>
          api<Task & { detail?: string }>(r.url, `/tasks/${task.body.id}`, {
            method: 'PUT',
            token: tokens[i],
            body: { status: 'en_proceso', assigned_to: r.id },
          }),
        ),
      );
      await vi.waitFor(
        async () => {
          const { rows } = await holder.query<{ app: string }>(
            `SELECT DISTINCT application_name AS app FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          expect(rows.map((r) => r.app).sort()).toEqual([appName('A'), appName('B')]);
        },
        { timeout: 10_000, interval: 20 },
      );
      await holder.query('COMMIT');
      answers = await racing;
    } finally {
      holder.release();
    }

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of answers) if (r.status === 409) expect(r.body.detail).toBe(ERR.driverMoveRule);
    const winner = racers[statuses.indexOf(200)];
    for (const url of [A.url, B.url]) {
      const row = (await get<Task[]>(url, '/tasks', admin)).find((t) => t.id === task.body.id);
      expect(row).toMatchObject({ status: 'en_proceso', assigned_to: winner.id });
    }
  }, 60_000);

  it('a role change made on A revokes the socket on B', async () => {
    const admin = await adminToken(A.url);
    const [driver] = await makeAccounts(A.url, admin, 1, 'conductor');
    const socket = await open(B.url, await login(B.url, driver.email));
    const revoked = nextEvent(socket, 'session:revoked', 2000);
    const gone = disconnected(socket);
    const res = await api(A.url, '/admin/update-user-role', {
      method: 'POST',
      token: admin,
      body: { user_id: driver.id, new_role: 'gestor' },
    });
    expect(res.status).toBe(200);
    expect(await revoked).toEqual({ reason: 'role_changed', detail: REVOKE_MESSAGES.role_changed });
    expect(await within(gone, 2000, 'disconnect')).toBe('io server disconnect');
  });

  it('the clock moved on A past a token expiry drops its socket on B before the answer', async () => {
    const admin = await adminToken(A.url);
    const [manager] = await makeAccounts(A.url, admin, 1, 'manager');
    const socket = await open(B.url, await login(B.url, manager.email));
    const revoked = collect(socket, 'session:revoked');
    const gone = disconnected(socket);
    const before = (await get<{ epoch_ms: number }>(B.url, '/server-time', admin)).epoch_ms;

    await advanceClock(A.url, TOKEN_TTL_MS + MINUTE);
    // B moved before A answered: its clock, and the socket whose token that expired.
    const after = (await api<{ epoch_ms: number }>(B.url, '/server-time')).body.epoch_ms;
    expect(after - before).toBeGreaterThanOrEqual(TOKEN_TTL_MS + MINUTE);
    expect(await within(gone, 1000, 'disconnect')).toBe('io server disconnect');
    expect(revoked).toEqual([{ reason: 'expired', detail: REVOKE_MESSAGES.expired }]);
  });

  it('a driver with a socket on each node is online once, until the last one closes', async () => {
    const admin = await adminToken(A.url);
    const [driver] = await makeAccounts(A.url, admin, 1, 'conductor');
    const token = await login(A.url, driver.email);
    // The login held them through A for the request window: past it, only their sockets hold them.
    await advanceClock(A.url, PRESENCE_WINDOW_MS + MINUTE);
    expect((await listed(B.url, admin, driver.id)).is_online).toBe(false);
    const minutesBefore = await onlineMinutes(B.url, admin, driver.id);
    const holders = async () =>
      (await nodes.pool.query('SELECT node_id FROM node_presence WHERE user_id = $1', [driver.id])).rowCount;

    const onA = await open(A.url, token);
    const onB = await open(B.url, token);
    await vi.waitFor(async () => expect(await holders()).toBe(2));
    for (const url of [A.url, B.url]) {
      const online = await get<OnlineDriver[]>(url, '/dashboard/online-drivers', admin);
      expect(online.filter((d) => d.id === driver.id)).toHaveLength(1);
      expect((await listed(url, admin, driver.id)).is_online).toBe(true);
    }

    // Ten minutes online through both nodes, then ten through B alone.
    await advanceClock(A.url, 10 * MINUTE);
    onA.close();
    await vi.waitFor(async () => expect(await holders()).toBe(1));
    expect((await listed(A.url, admin, driver.id)).is_online).toBe(true);
    await advanceClock(B.url, 10 * MINUTE);
    expect((await listed(A.url, admin, driver.id)).is_online).toBe(true);
    onB.close();
    await vi.waitFor(async () => expect((await listed(A.url, admin, driver.id)).is_online).toBe(false));
    expect(await holders()).toBe(0);

    // Twenty minutes online (and the real seconds the test took), counted once, not once per node.
    const online = (await onlineMinutes(A.url, admin, driver.id)) - minutesBefore;
    expect(online).toBeGreaterThanOrEqual(20);
    expect(online).toBeLessThan(21);
  });

  it('a clock move through A leaves online, and counting, a driver only B holds', async () => {
    const admin = await adminToken(A.url);
    const board = await open(A.url, admin);
    const [driver] = await makeAccounts(A.url, admin, 1, 'conductor');
    const onB = await open(B.url, await login(B.url, driver.email));
    await vi.waitFor(async () => expect((await listed(A.url, admin, driver.id)).is_online).toBe(true));
    const changes = collect(board, 'users:changed');
    const minutesBefore = await onlineMinutes(A.url, admin, driver.id);

    // Every node's clock moves before the answer; B, alive all along, still holds the driver.
    await advanceClock(A.url, 10 * MINUTE);
    expect((await listed(A.url, admin, driver.id)).is_online).toBe(true);
    expect(changes.filter((c) => c.user.id === driver.id).map((c) => c.user.is_online)).toEqual([]);
    onB.close();
    await vi.waitFor(async () => expect((await listed(A.url, admin, driver.id)).is_online).toBe(false));
    expect((await onlineMinutes(A.url, admin, driver.id)) - minutesBefore).toBeGreaterThanOrEqual(10);
  });
});

describe('a node killed', () => {
  it('takes its users offline through the other node once its heartbeat is NODE_TIMEOUT_MS old', async () => {
    const [A, B, { pool }] = await cluster();
    const admin = await adminToken(B.url);
    const [driver] = await makeAccounts(B.url, admin, 1, 'conductor');
    // A's heartbeat row: the node that does not hold the admin (whose requests all went to B).
    const adminId = (await get<AdminUser[]>(B.url, '/admin/users', admin)).find(
      (u) => u.role === 'admin',
    )!.id;
    const heartbeatOfA = async () =>
      (
        await pool.query<{ at: string }>(
          `SELECT heartbeat_at AS at FROM server_nodes
            WHERE id NOT IN (SELECT node_id FROM node_presence WHERE user_id = $1)`,
          [adminId],
        )
      ).rows.map((r) => Number(r.at));
    const [beat] = await heartbeatOfA();
    // Just after one of A's heartbeats, so that the driver comes online on A after its last one.
    await vi.waitFor(async () => expect(await heartbeatOfA()).not.toEqual([beat]), {
      timeout: PRESENCE_SWEEP_MS + 2000,
      interval: 20,
    });
    const socket = await open(A.url, await login(A.url, driver.email));
    await vi.waitFor(async () => expect((await listed(B.url, admin, driver.id)).is_online).toBe(true));
    const gone = disconnected(socket);

    expect(await killNode(A)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await within(gone, 2000, 'disconnect')).toBe('transport close');
    // Nobody on B knows yet whether A is gone or slow.
    expect((await listed(B.url, admin, driver.id)).is_online).toBe(true);

    // B sweeps as its clock moves (A, dead, confirms nothing: the answer waits for the adapter's timeout).
    await advanceClock(B.url, NODE_TIMEOUT_MS + 5_000);
    expect((await listed(B.url, admin, driver.id)).is_online).toBe(false);
    // Offline as of A's last heartbeat, not of B's moved clock; and never before they came online.
    const { rows } = await pool.query<{ started_at: string; ended_at: string }>(
      'SELECT started_at, ended_at FROM presence_intervals WHERE user_id = $1',
      [driver.id],
    );
    expect(rows).toHaveLength(1);
    const online = Number(rows[0].ended_at) - Number(rows[0].started_at);
    expect(online).toBeLessThan(NODE_TIMEOUT_MS);
    expect(online).toBeGreaterThanOrEqual(0);
  });

  it('behind the proxy, its sockets come back through the other node and miss nothing', async () => {
    const [A, B] = await cluster();
    const ready = new Set<string>();
    proxy = await startProxy({
      port: 0,
      host: '127.0.0.1',
      targets: [A, B].map((n) => ({ name: n.name, url: n.url })),
      onStatus: (t, isReady) => void (isReady ? ready.add(t.name) : ready.delete(t.name)),
    });
    await vi.waitFor(() => expect([...ready].sort()).toEqual(['A', 'B']), { timeout: 5000 });
    const url = proxy.url;
    const admin = await adminToken(url);
    const managers = await makeAccounts(url, admin, 10, 'manager');
    const tokens = await Promise.all(managers.map((m) => login(url, m.email)));

    // 100 sockets, ten per manager, reconnecting by themselves as the client does.
    const clients = Array.from({ length: 100 }, (_, i) => {
      const token = tokens[i % 10];
      const socket: TestSocket = ioClient(url, {
        auth: { token },
        transports: ['websocket'],
        forceNew: true,
      });
      sockets.push(socket);
      const state = { socket, token, connects: 0, drops: 0 };
      socket.on('connect', () => void state.connects++);
      socket.on('disconnect', () => void state.drops++);
      return state;
    });
    const connected = () => clients.filter((c) => c.socket.connected).length;
    await vi.waitFor(() => expect(connected()).toBe(100), { timeout: 10_000 });
    const onA = await socketsOn(A.url, admin);
    expect(onA).toBeGreaterThan(0);
    expect(onA + (await socketsOn(B.url, admin))).toBe(100);

    await killNode(A);
    await vi.waitFor(() => expect(clients.filter((c) => c.drops > 0).length).toBe(onA), { timeout: 5000 });
    // A change while they are down (a reconnection waits its delay first).
    const down = await createTask(B.url, admin, 'NOD-DOWN');
    expect(down.status).toBe(201);
    const dropped = clients.filter((c) => c.drops > 0);
    expect(dropped.filter((c) => c.socket.connected).length).toBe(0);

    await vi.waitFor(() => expect(connected()).toBe(100), { timeout: 15_000 });
    expect(dropped.map((c) => c.connects)).toEqual(Array(onA).fill(2));
    expect(await socketsOn(B.url, admin)).toBe(100);
    // What changed while a socket was away is on the board it reloads.
    for (const c of dropped) {
      const board = await get<Task[]>(url, '/tasks', c.token);
      expect(board.map((t) => t.id)).toContain(down.body.id);
    }

    // A change on B now reaches all 100.
    const heard = clients.map((c) =>
      nextMatching(c.socket, 'task:updated', (p) => p.task.id === down.body.id, 3000),
    );
    const res = await api(B.url, `/tasks/${down.body.id}`, {
      method: 'PUT',
      token: admin,
      body: { priority: 'high' },
    });
    expect(res.status).toBe(200);
    const updates = await Promise.all(heard);
    expect(updates.map((u) => u.task.priority)).toEqual(Array(100).fill('high'));
  }, 90_000);
});
