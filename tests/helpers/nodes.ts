// Many nodes on one PostgreSQL (CONTRACT §18): real server processes (tests/process/harness.ts) sharing a
// fresh database of the test cluster (tests/helpers/postgres.ts), each on its own port, as a load balancer
// sees them; plus what the many-node tests do to them: accounts made through the API, a node killed, the
// test clock moved, the sockets a node holds.
import path from 'node:path';
import type pg from 'pg';
import type { Role, VehicleType } from '@shared/enums';
import type { AuthResponse, HealthCheck } from '@shared/schemas';
import { freshPostgresDatabase } from './postgres';
import { api, loginAs, startServer, tempDir, type Exit, type ServerProcess } from '../process/harness';

/** One secret for every node: a token signed by one is valid on the others. */
const JWT_SECRET = 'secreto-de-los-nodos-de-pruebas-con-mas-de-32-caracteres';
const PASSWORD = 'clave-de-los-nodos-1234';

export interface ClusterNode extends ServerProcess {
  name: string;
}

export interface Nodes {
  nodes: ClusterNode[];
  /** A pool on the nodes' database, for what the test checks or holds there itself. */
  pool: pg.Pool;
  /** Kills every node still running and drops the database. */
  close(): Promise<void>;
}

/**
 * Starts the named nodes at once on a fresh database (migrations and the first admin run once among them).
 * Each node's connections carry its name (PGAPPNAME, which node-postgres reads), so pg_stat_activity tells
 * whose they are; its DB_PATH is a folder of its own, where the data folder's files (VAPID keys) go.
 */
export async function startNodes(names: string[]): Promise<Nodes> {
  const db = await freshPostgresDatabase();
  const started = await Promise.allSettled(
    names.map(async (name) => {
      const proc = await startServer({
        env: {
          DATABASE_URL: db.url,
          DB_PATH: path.join(tempDir(`nodo-${name}`), 'torre.db'),
          JWT_SECRET,
          TEST_CLOCK: '1',
          PGAPPNAME: appName(name),
        },
      });
      return { ...proc, name };
    }),
  );
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const close = async () => {
    await Promise.all(nodes.map(killNode));
    await db.drop();
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { nodes, pool: db.pool, close };
}

/** The application_name of a node's database connections. */
export const appName = (node: string): string => `torre-${node}`;

/** SIGKILL, as a crash or an OOM killer ends a node: no shutdown of its own. */
export async function killNode(node: ServerProcess): Promise<Exit> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
  return node.exited;
}

export async function login(url: string, email: string): Promise<string> {
  const res = await loginAs(url, { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login of ${email} on ${url} answered ${res.status}`);
  return res.body.access_token;
}

export interface Account {
  id: string;
  email: string;
}

let seq = 0;

/**
 * Approved accounts of the role made through node `url`'s API, as people get them: registered, approved
 * by the admin, a conductor's task types set. Ten at a time (one IP's password hashing is gated per node).
 */
export async function makeAccounts(
  url: string,
  adminToken: string,
  count: number,
  role: Role,
  taskTypes?: VehicleType[],
): Promise<Account[]> {
  const accounts: Account[] = [];
  const one = async (): Promise<Account> => {
    const n = ++seq;
    const email = `${role}-${n}@nodos.test`;
    const reg = await api<AuthResponse>(url, '/auth/register', {
      method: 'POST',
      body: { email, password: PASSWORD, name: `${role} ${n}`, role },
    });
    if (reg.status !== 201) throw new Error(`register answered ${reg.status}`);
    const id = reg.body.user.id;
    await ok(url, '/admin/approve-user', adminToken, { user_id: id, approved: true });
    if (taskTypes)
      await ok(url, '/admin/update-user-task-types', adminToken, { user_id: id, task_types: taskTypes });
    return { id, email };
  };
  while (accounts.length < count)
    accounts.push(...(await Promise.all(Array.from({ length: Math.min(10, count - accounts.length) }, one))));
  return accounts;
}

async function ok(url: string, route: string, token: string, body: unknown): Promise<void> {
  const res = await api<{ detail?: string }>(url, route, { method: 'POST', token, body });
  if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${res.body.detail}`);
}

/** POST /api/test/clock on the node: every node's clock moves before it answers (CONTRACT §18). */
export async function advanceClock(url: string, ms: number): Promise<number> {
  const res = await api<{ epoch_ms: number }>(url, '/test/clock', {
    method: 'POST',
    body: { advance_ms: ms },
  });
  if (res.status !== 200) throw new Error(`test clock answered ${res.status}`);
  return res.body.epoch_ms;
}

/** How many sockets the node itself holds (its health check's websocket line: `N clientes conectados`). */
export async function socketsOn(url: string, adminToken: string): Promise<number> {
  const res = await api<HealthCheck>(url, '/admin/system/health-check', { token: adminToken });
  if (res.status !== 200) throw new Error(`health-check answered ${res.status}`);
  const m = /^(\d+) cliente/.exec(res.body.checks.websocket.message);
  if (!m) throw new Error(`websocket check: ${res.body.checks.websocket.message}`);
  return Number(m[1]);
}
