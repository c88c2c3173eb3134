// Push fan-out (CONTRACT §9: an update reaches every client within 50 ms p99, 500 clients) and the
// server's memory with those sockets. N Socket.IO clients (60 % staff, 40 % drivers having the task's
// type, so every one of them sees the pool task) follow one task; sequential PUTs of that task are
// timed from the moment the request leaves until the `task:updated` of that version has reached the
// LAST socket. The sockets live in worker threads (clients.ts).
import type { Role } from '@shared/enums';
import { clock, startScreens, type Screen, type Screens } from './clients';
import { createDatabase, type BenchDatabase } from './database';
import type { Section } from './report';
import { api, login, loginAll, rssMb, seedAccounts, startServer, tempDir } from './server';
import { fmt, percentiles } from './stats';

const ADMIN = { email: 'bench-admin@bench.local', password: 'bench-admin-password' };
/** Share of the clients that are staff (the control-room screens); the rest are drivers. */
const STAFF_SHARE = 0.6;
const WARMUP_UPDATES = 5;
export const FANOUT_BUDGET_P99_MS = 50;

export interface FanoutOptions {
  clients: number;
  updates: number;
  /** Threads the client sockets are spread over. */
  threads: number;
}

export async function runFanout(opts: FanoutOptions, log: (line: string) => void): Promise<Section[]> {
  const staff = Math.round(opts.clients * STAFF_SHARE);
  const drivers = opts.clients - staff;
  const tmp = tempDir('fanout');
  let database: BenchDatabase | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let screens: Screens | undefined;
  try {
    database = await createDatabase(tmp.dir, 'bench');
    server = await startServer(database, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    const adminToken = await login(server.url, ADMIN.email, ADMIN.password);
    const roles: Role[] = Array.from({ length: opts.clients }, (_, i) =>
      i < staff ? (i % 2 ? 'manager' : 'gestor') : 'conductor',
    );
    const tokens = await loginAll(server.url, await seedAccounts(database, roles));
    const rssIdle = rssMb(server.pid);

    // Drivers are online but not clocked in, so the engine leaves the pool task where it is.
    const task = await api<{ id: string; version: number }>(`${server.url}/api/tasks`, 'POST', adminToken, {
      title: 'Mover',
      origin: 'Muelle 1',
      destination: 'Campa A-1',
      trailer_id: 'BENCH-0001',
      vehicle_type: 'semiremolque',
    });
    log(
      `fan-out: connecting ${opts.clients} sockets (${staff} staff, ${drivers} drivers) in ${opts.threads} threads`,
    );
    screens = await startScreens({
      url: server.url,
      mode: 'socket',
      resync: false,
      watch: task.id,
      version: task.version,
      threads: opts.threads,
      screens: tokens.map((token, i): Screen => ({ token, kind: i < staff ? 'staff' : 'driver' })),
    });

    const fanout: number[] = [];
    const http: number[] = [];
    let version = task.version;
    for (let i = 0; i < WARMUP_UPDATES + opts.updates; i++) {
      version += 1;
      const lastScreen = screens.allShow(version);
      const sent = clock();
      const answered = api(`${server.url}/api/tasks/${task.id}`, 'PUT', adminToken, {
        description: `Actualización ${i}`,
      }).then(clock);
      const [last, answer] = await Promise.all([lastScreen, answered]);
      if (i < WARMUP_UPDATES) continue;
      fanout.push(last - sent);
      http.push(answer - sent);
    }
    const rssConnected = rssMb(server.pid);
    const f = percentiles(fanout);
    const h = percentiles(http);
    return [
      {
        name: `Push fan-out (${opts.clients} sockets: ${staff} staff, ${drivers} drivers; ${opts.updates} updates)`,
        rows: [
          {
            measure: 'PUT sent → task:updated at the last socket, p50 / p95 / p99',
            result: `${fmt(f.p50)} / ${fmt(f.p95)} / ${fmt(f.p99)} ms`,
            budget: `p99 ≤ ${FANOUT_BUDGET_P99_MS} ms`,
            ok: f.p99 <= FANOUT_BUDGET_P99_MS,
          },
          { measure: 'PUT sent → its HTTP answer, p50 / p99', result: `${fmt(h.p50)} / ${fmt(h.p99)} ms` },
        ],
      },
      {
        name: 'Memory',
        rows: [
          { measure: 'server RSS, accounts logged in, no socket', result: `${fmt(rssIdle, 0)} MB` },
          {
            measure: `server RSS with ${opts.clients} sockets connected (after the updates)`,
            result: `${fmt(rssConnected, 0)} MB`,
          },
          {
            measure: 'per socket',
            result: `${fmt(((rssConnected - rssIdle) * 1024) / opts.clients, 0)} KB`,
          },
        ],
      },
    ];
  } finally {
    await screens?.close();
    await server?.stop();
    await database?.drop();
    tmp.remove();
  }
}
