// Push fan-out (CONTRACT §9: an update reaches every client within 50 ms p99, 500 clients) and the
// server's memory with those sockets. N Socket.IO clients (60 % staff, 40 % drivers having the task's
// type, so every one of them sees the pool task) follow one task; sequential PUTs of that task are
// timed from the moment the request leaves until the `task:updated` of that version has reached the
// LAST socket. The sockets live in worker threads (clients.ts). Then the same number of screens is timed
// against a bare Socket.IO server broadcasting the same task (bare-socket-server.ts): the floor on this
// box, to which the product's fan-out is reported as a ratio (issue 31 item 4), at each size asked.
import type { Role } from '@shared/enums';
import { clock, startScreens, type Screen, type Screens } from './clients';
import { createDatabase, type BenchDatabase } from './database';
import type { Section } from './report';
import {
  api,
  login,
  loginAll,
  rssMb,
  seedAccounts,
  startBareSocketServer,
  startServer,
  tempDir,
} from './server';
import { fmt, percentiles } from './stats';

const ADMIN = { email: 'bench-admin@bench.local', password: 'bench-admin-password' };
/** Share of the clients that are staff (the control-room screens); the rest are drivers. */
const STAFF_SHARE = 0.6;
const WARMUP_UPDATES = 5;
export const FANOUT_BUDGET_P99_MS = 50;
/** CONTRACT §9's size: the 50 ms budget is for this many clients. */
const FANOUT_BUDGET_CLIENTS = 500;
/** Issue 31: the product's fan-out p99 at most this many times a bare broadcast's, at every size. */
export const FANOUT_FLOOR_RATIO = 1.25;

export interface FanoutOptions {
  /** The sizes measured, one run each (500 and 5,000 sockets in the full bench). */
  clients: number[];
  updates: number;
  /** Threads the client sockets are spread over. */
  threads: number;
}

export async function runFanout(opts: FanoutOptions, log: (line: string) => void): Promise<Section[]> {
  const sections: Section[] = [];
  for (const clients of opts.clients) sections.push(...(await fanoutOf({ ...opts, clients }, log)));
  return sections;
}

/**
 * The same screens against the bare server: a POST makes it broadcast `task` at the next version; timed
 * from the POST leaving until the last screen shows that version.
 */
async function bareFanout(
  task: { id: string; version: number },
  screens: Screen[],
  opts: { updates: number; threads: number },
): Promise<number[]> {
  const bare = await startBareSocketServer();
  let sockets: Screens | undefined;
  try {
    let version = task.version;
    sockets = await startScreens({
      url: bare.url,
      mode: 'socket',
      resync: false,
      watch: task.id,
      version,
      threads: opts.threads,
      screens,
    });
    const times: number[] = [];
    for (let i = 0; i < WARMUP_UPDATES + opts.updates; i++) {
      version += 1;
      const lastScreen = sockets.allShow(version);
      const sent = clock();
      const answered = fetch(`${bare.url}/emit`, {
        method: 'POST',
        body: JSON.stringify({ task: { ...task, version } }),
      });
      const [last] = await Promise.all([lastScreen, answered]);
      if (i >= WARMUP_UPDATES) times.push(last - sent);
    }
    return times;
  } finally {
    await sockets?.close();
    await bare.stop();
  }
}

async function fanoutOf(
  opts: Omit<FanoutOptions, 'clients'> & { clients: number },
  log: (line: string) => void,
): Promise<Section[]> {
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
    const screenList = tokens.map((token, i): Screen => ({ token, kind: i < staff ? 'staff' : 'driver' }));
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
      screens: screenList,
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
    // The task as the screens got it, so the bare server broadcasts the same bytes.
    const shown = await api<{ id: string; version: number }>(
      `${server.url}/api/tasks/${task.id}`,
      'GET',
      adminToken,
    );
    await screens.close();
    screens = undefined;
    await server.stop();
    log(`fan-out: the same ${opts.clients} sockets against a bare Socket.IO server`);
    const floor = percentiles(await bareFanout(shown, screenList, opts));
    const f = percentiles(fanout);
    const h = percentiles(http);
    const ratio = f.p99 / floor.p99;
    const budgeted = opts.clients <= FANOUT_BUDGET_CLIENTS;
    return [
      {
        name: `Push fan-out (${opts.clients} sockets: ${staff} staff, ${drivers} drivers; ${opts.updates} updates)`,
        rows: [
          {
            measure: 'PUT sent → task:updated at the last socket, p50 / p95 / p99',
            result: `${fmt(f.p50)} / ${fmt(f.p95)} / ${fmt(f.p99)} ms`,
            ...(budgeted && {
              budget: `p99 ≤ ${FANOUT_BUDGET_P99_MS} ms`,
              ok: f.p99 <= FANOUT_BUDGET_P99_MS,
            }),
          },
          { measure: 'PUT sent → its HTTP answer, p50 / p99', result: `${fmt(h.p50)} / ${fmt(h.p99)} ms` },
          {
            measure: 'bare Socket.IO broadcast to the same sockets (no auth, no database), p50 / p99',
            result: `${fmt(floor.p50)} / ${fmt(floor.p99)} ms`,
          },
          {
            measure: 'fan-out ÷ bare broadcast, p99',
            result: `${fmt(ratio, 2)}×`,
            budget: `≤ ${FANOUT_FLOOR_RATIO}×`,
            ok: ratio <= FANOUT_FLOOR_RATIO,
          },
        ],
      },
      {
        name: `Memory (${opts.clients} sockets)`,
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
