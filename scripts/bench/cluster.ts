// Many nodes (issue 17; `npm run bench -- --cluster`, PostgreSQL only): two server processes on one
// database behind the cluster's own reverse proxy (scripts/cluster/proxy.ts), N screens connected through
// it (so spread over both nodes). Measured:
// - fan-out: a PUT through the proxy (landing on either node) → its task:updated at the LAST screen, the
//   other node's screens reached through the PostgreSQL adapter (LISTEN/NOTIFY);
// - failover: SIGKILL of node 1, then an update made on the survivor → the moment the last screen
//   shows it. Node 1's screens must notice the loss, reconnect through the proxy to node 2 (socket.io's
//   own reconnection) and resync over REST (GET /api/tasks: the staff's shared board) — the update
//   reaches them by the resync or by the event, whichever comes first.
import type { Role } from '@shared/enums';
import { NODE_HEADER, startProxy, type RunningProxy } from '../cluster/proxy';
import { clock, startScreens, type Screen, type Screens } from './clients';
import { createDatabase, type BenchDatabase } from './database';
import type { Section } from './report';
import { api, login, loginAll, seedAccounts, startServer, tempDir, type ServerProcess } from './server';
import { fmt, percentiles } from './stats';

const ADMIN = { email: 'bench-admin@bench.local', password: 'bench-admin-password' };
const STAFF_SHARE = 0.6;
const WARMUP_UPDATES = 5;
export const CLUSTER_FANOUT_BUDGET_P99_MS = 100;
export const FAILOVER_BUDGET_MS = 5_000;

export interface ClusterOptions {
  clients: number;
  updates: number;
  threads: number;
}

export async function runCluster(opts: ClusterOptions, log: (line: string) => void): Promise<Section[]> {
  const staff = Math.round(opts.clients * STAFF_SHARE);
  const drivers = opts.clients - staff;
  const tmp = tempDir('cluster');
  let database: BenchDatabase | undefined;
  const nodes: ServerProcess[] = [];
  let proxy: RunningProxy | undefined;
  let screens: Screens | undefined;
  try {
    database = await createDatabase(tmp.dir, 'bench');
    const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: 'loopback' };
    // Started together, as a cluster starts: migrations and the first admin run once (advisory locks).
    nodes.push(...(await Promise.all([startServer(database, env), startServer(database, env)])));
    proxy = await startProxy({
      port: 0,
      host: '127.0.0.1',
      targets: nodes.map((n, i) => ({ name: String(i + 1), url: n.url })),
    });
    await waitForReady(proxy.url, nodes.length);
    const adminToken = await login(proxy.url, ADMIN.email, ADMIN.password);
    const roles: Role[] = Array.from({ length: opts.clients }, (_, i) =>
      i < staff ? (i % 2 ? 'manager' : 'gestor') : 'conductor',
    );
    // Drivers see the watched swap task in their swap list, which is what their resync reads.
    const tokens = await loginAll(proxy.url, await seedAccounts(database, roles, ['swap']));
    const task = await api<{ id: string; version: number }>(`${proxy.url}/api/tasks`, 'POST', adminToken, {
      title: 'Mover',
      origin: 'Muelle 1',
      destination: 'Campa A-1',
      trailer_id: 'BENCH-CLUSTER-1',
      vehicle_type: 'swap',
    });
    log(`cluster: ${opts.clients} screens through the proxy onto ${nodes.length} nodes`);
    screens = await startScreens({
      url: proxy.url,
      mode: 'socket',
      resync: false,
      reconnect: true,
      watch: task.id,
      version: task.version,
      threads: opts.threads,
      screens: tokens.map((token, i): Screen => ({ token, kind: i < staff ? 'staff' : 'driver' })),
    });

    let version = task.version;
    const update = async (i: number) => {
      version += 1;
      const lastScreen = screens!.allShow(version);
      const sent = clock();
      await api(`${proxy!.url}/api/tasks/${task.id}`, 'PUT', adminToken, { description: `Cambio ${i}` });
      return (await lastScreen) - sent;
    };
    const fanout: number[] = [];
    for (let i = 0; i < WARMUP_UPDATES + opts.updates; i++) {
      const ms = await update(i);
      if (i >= WARMUP_UPDATES) fanout.push(ms);
    }

    log('cluster: SIGKILL of node 1, then an update on the survivor');
    const killedAt = clock();
    nodes[0]!.child.kill('SIGKILL');
    // Made at once on the survivor (a request already on its way to node 1 through the proxy fails with
    // it), the update must reach node 1's screens through their reconnection and resync.
    version += 1;
    const everyone = screens.allShow(version);
    await api(`${nodes[1]!.url}/api/tasks/${task.id}`, 'PUT', adminToken, { description: 'Tras la caída' });
    const caughtUp = await withTimeout(everyone, 60_000).catch(async (err: Error) => {
      // What a failed run needs to be understood: how many screens are behind, and whether they got back.
      const lagging = await screens!.report();
      const shown = lagging.versions.find(([v]) => v === version)?.[1].length ?? 0;
      throw new Error(
        `${err.message}: ${opts.clients - shown} of ${opts.clients} screens do not show it; ` +
          `${lagging.reconnects} reconnections, ${lagging.errors} failed requests`,
      );
    });
    const failover = caughtUp - killedAt;
    const report = await screens.report();

    const f = percentiles(fanout);
    return [
      {
        name: `Many nodes (${nodes.length} nodes on one PostgreSQL, ${opts.clients} sockets through the proxy: ${staff} staff, ${drivers} drivers; ${opts.updates} updates)`,
        rows: [
          {
            measure: 'PUT through the proxy → task:updated at the last socket (either node), p50 / p95 / p99',
            result: `${fmt(f.p50)} / ${fmt(f.p95)} / ${fmt(f.p99)} ms`,
            budget: `p99 ≤ ${CLUSTER_FANOUT_BUDGET_P99_MS} ms`,
            ok: f.p99 <= CLUSTER_FANOUT_BUDGET_P99_MS,
          },
          {
            measure:
              "SIGKILL of node 1 → every screen shows a change made after it (node 1's reconnected and resynced)",
            result: `${fmt(failover / 1000, 2)} s`,
            budget: `≤ ${FAILOVER_BUDGET_MS / 1000} s`,
            ok: failover <= FAILOVER_BUDGET_MS,
          },
          {
            measure: 'screens’ failed requests (all the run), reconnections after the SIGKILL',
            result: `${report.errors}, ${report.reconnects}`,
          },
        ],
      },
    ];
  } finally {
    await screens?.close();
    await proxy?.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await database?.drop();
    tmp.remove();
  }
}

/** Resolves once the proxy has seen `count` ready nodes (its probe runs every second). */
async function waitForReady(url: string, count: number): Promise<void> {
  const seen = new Set<string>();
  const deadline = Date.now() + 15_000;
  while (seen.size < count && Date.now() < deadline) {
    const res = await fetch(`${url}/api/health/ready`).catch(() => undefined);
    const node = res?.headers.get(NODE_HEADER);
    if (res?.ok && node) seen.add(node);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (seen.size < count) throw new Error(`only ${seen.size} of ${count} nodes ready behind the proxy`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`not every screen caught up within ${ms / 1000} s`)), ms).unref(),
    ),
  ]);
}
