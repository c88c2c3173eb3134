// REST over a big history, and sustained writes. A yard of `tasks` historical tasks (100,000 by default,
// with enough drivers to have done them, as the generator's CLI sizes it) and `open` open tasks is
// generated; then autocannon reads each endpoint for a few seconds over one connection (so the latency
// is the server's time, not a queue). Then trucks enter through the gate as fast as it lets them, each
// dropping a new trailer at one big campa; and with a webhook subscribed to every event (issue 31 item 1),
// new tasks are POSTed as fast as the server takes them while drivers are online and clocked in,
// completing their tasks, so the engine assigns as the tasks arrive; last, other systems (integration.ts).
import autocannon from 'autocannon';
import { addDays } from '@shared/periods';
import { madridDay } from '@shared/time';
import type { YardLocation } from '@shared/schemas';
import { placeKey } from '@shared/text';
import { db, query, tx } from '../../server/db';
import { locations } from '../../server/db/tables';
import { createDatabase, ENGINE } from './database';
import type { Section, Row } from './report';
import type { EngineName } from './sections';
import { api, login, startServer, tempDir } from './server';
import { fmt, percentiles, sleep } from './stats';
import { generateYardInto } from './yard';
import { runIntegration, withReceiver, type Receiver } from './integration';
import { GATE } from '../generator/vocabulary';

export interface RestOptions {
  tasks: number;
  open: number;
  /** Seconds per read endpoint. */
  seconds: number;
  writeSeconds: number;
  writeConnections: number;
  /** Drivers online and clocked in during the writes, each completing a task every second or so. */
  drivers: number;
  seed: number;
}

export const BUDGETS: Record<
  EngineName,
  { statsP50: number; readP99: number; writesPerSecond: number; entriesPerSecond: number }
> = {
  // Issue 31 item 1: the writes with a webhook subscribed to every event, ≥ 1,000/s and ≥ 600/s.
  sqlite: { statsP50: 2, readP99: 100, writesPerSecond: 1000, entriesPerSecond: 200 },
  // A network round trip per query (loopback TCP) instead of a function call: the stats take a few more.
  postgres: { statsP50: 5, readP99: 100, writesPerSecond: 600, entriesPerSecond: 200 },
};

/**
 * The bench's own campa, where every truck of the gate's writes drops its trailer: created straight in
 * the database with room for any run (the API's places hold at most 500), so no entry meets a full place.
 */
const BENCH_CAMPA = { code: 'BENCH-CAMPA', name: 'Campa Banco', capacity: 10_000_000 };

/** Issue 18: the yard's map answers within this at the 99th percentile, on both engines. */
const YARD_P99_MS = 50;
/** Issue 27: a trailer's record (its open task, last 20 moves and visits) within this at the 99th percentile. */
const TRAILER_P99_MS = 20;
/** Issue 30: the indicators of 30 and of 92 days (CONTRACT §22's longest period) within this at the 99th percentile. */
const INDICATORS_P99_MS = 300;
/**
 * Issue 31: this many clients searching at once answered within SEARCHES_P99_MS at the 99th percentile,
 * and a screen's stats meanwhile within STATS_UNDER_SEARCHES_P99_MS (a long read must not hold the others).
 */
const CONCURRENT_SEARCHES = 16;
const SEARCHES_P99_MS = 500;
const STATS_UNDER_SEARCHES_P99_MS = 20;
const SEARCH_PATH = '/api/admin/search/tasks?search_type=all&query=muelle';
const STATS_PATH = '/api/dashboard/stats';

interface Measured {
  latencies: number[];
  ok: number;
  failed: number;
  seconds: number;
}

/** autocannon against one request shape; every answer's latency kept (autocannon's own histogram is in whole ms). */
async function cannon(opts: autocannon.Options): Promise<Measured> {
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(opts, (err: unknown, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok += 1;
        latencies.push(responseTime);
      } else failed += 1;
    });
  });
  return { latencies, ok, failed: failed + result.errors + result.timeouts, seconds: result.duration };
}

export async function runRest(opts: RestOptions, log: (line: string) => void): Promise<Section[]> {
  const budgets = BUDGETS[ENGINE];
  const tmp = tempDir('rest');
  const database = await createDatabase(tmp.dir, 'yard');
  try {
    const { driversFor } = await import('../generator');
    log(
      `REST: generating a yard with ${opts.tasks.toLocaleString('en')} historical tasks and ${opts.open} open`,
    );
    const yard = await generateYardInto(database, {
      seed: opts.seed,
      historicalTasks: opts.tasks,
      openTasks: opts.open,
      drivers: driversFor(opts.tasks),
    });
    const campaId = await database.use(() =>
      tx(async () => {
        const id = crypto.randomUUID();
        const at = new Date();
        await db.insert(locations).values({
          id,
          code: BENCH_CAMPA.code,
          name: BENCH_CAMPA.name,
          nameKey: placeKey(BENCH_CAMPA.name),
          kind: 'campa',
          zone: BENCH_CAMPA.name,
          capacity: BENCH_CAMPA.capacity,
          createdAt: at,
          updatedAt: at,
        });
        return id;
      }),
    );
    // The API key's own rate is not what is measured (issue 29); the webhooks' receiver is on loopback.
    const server = await startServer(database, {
      API_KEY_RATE_PER_MIN: '100000000',
      WEBHOOK_ALLOW_LOOPBACK: '1',
    });
    try {
      const admin = yard.logins[0];
      const token = await login(server.url, admin.email, admin.password);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const today = madridDay(Date.now());
      const yesterday = addDays(today, -1);
      const reads: Read[] = [
        { name: 'GET /api/dashboard/stats', path: STATS_PATH, budget: { p50: budgets.statsP50 } },
        { name: `GET /api/tasks (${opts.open} open + finished in 24 h)`, path: '/api/tasks' },
        { name: 'search: all, "muelle"', path: SEARCH_PATH, budget: { p99: budgets.readP99 } },
        ...(['deficiencies', 'delayed-assignments'] as const).flatMap((report) => [
          {
            name: `report ${report}, 24h`,
            path: `/api/admin/reports/${report}?period=24h`,
            budget: { p99: budgets.readP99 },
          },
          {
            name: `report ${report}, day ${yesterday}`,
            path: `/api/admin/reports/${report}?period=day&date=${yesterday}`,
            budget: { p99: budgets.readP99 },
          },
        ]),
        ...[30, 92].map((days) => ({
          name: `GET /api/admin/indicators, ${days} days`,
          path: `/api/admin/indicators?from=${addDays(today, 1 - days)}&to=${today}`,
          budget: { p99: INDICATORS_P99_MS },
        })),
      ];
      const readRows: Row[] = [];
      for (const read of reads) readRows.push(await measureRead(server.url, token, read, opts.seconds, log));
      const concurrentRows = await measureUnderSearches(server.url, token, opts.seconds, log);

      // The yard's map and list (CONTRACT §17), over the generated catalogue and its trailers.
      const map = await api<YardLocation[]>(`${server.url}/api/yard`, 'GET', token);
      const standing = map.reduce((n, l) => n + l.trailers.length, 0);
      // A trailer standing in the yard has a long history (about 30 moves each at 100,000 tasks).
      const trailer = map.find((l) => l.trailers.length)?.trailers[0].trailer_id;
      if (!trailer) throw new Error('the generated yard has no trailer standing');
      const yardRows: Row[] = [];
      for (const read of [
        { name: 'GET /api/yard (the map)', path: '/api/yard', budget: { p99: YARD_P99_MS } },
        { name: 'GET /api/yard/trailers (the list)', path: '/api/yard/trailers' },
        {
          name: 'GET /api/trailers/{id} (a trailer standing: record, open task, last 20 moves)',
          path: `/api/trailers/${encodeURIComponent(trailer)}`,
          budget: { p99: TRAILER_P99_MS },
        },
      ])
        yardRows.push(await measureRead(server.url, token, read, opts.seconds, log));

      const entries = await runGateEntries(server.url, headers, campaId, opts, log);
      // From here on a webhook is subscribed to every event, delivered to a receiver on the box.
      const { writes, integration } = await withReceiver(server.url, token, async (receiver) => {
        const writes = await delivering(receiver, () =>
          runWrites(server.url, headers, yard.logins, opts, log),
        );
        const integration = await runIntegration(
          server.url,
          token,
          ENGINE,
          receiver,
          {
            seconds: opts.writeSeconds,
            flood: (keyHeaders) =>
              postEach(server.url, keyHeaders, opts, '/api/tasks', (n) => ({
                title: 'Mover',
                origin: `Muelle ${(n % 20) + 1}`,
                destination: GATE,
                trailer_id: `BK-${n}`,
              })),
          },
          log,
        );
        return { writes, integration };
      });
      const e = percentiles(entries.latencies, 1);
      const entryRate = entries.ok / entries.seconds;
      await server.stop();
      // Straight from the database once the server is down: how many tasks the engine handed out meanwhile.
      const [{ n: assigned }] = await database.use(() =>
        query<{ n: number }>(
          "SELECT count(*) AS n FROM task_events WHERE type = 'assigned' AND actor_id IS NULL AND at >= ?",
          [writes.startedAt],
        ),
      );
      const w = percentiles(writes.m.latencies, 1);
      const rate = writes.m.ok / writes.m.seconds;
      return [
        {
          name: `REST with ${opts.tasks.toLocaleString('en')} historical tasks (${driversFor(opts.tasks)} drivers; 1 connection)`,
          rows: readRows,
        },
        {
          name: `Reads side by side with ${opts.tasks.toLocaleString('en')} historical tasks (${CONCURRENT_SEARCHES} clients searching)`,
          rows: concurrentRows,
        },
        {
          name: `Yard with ${opts.tasks.toLocaleString('en')} historical tasks (1 connection)`,
          rows: [
            {
              measure: 'the generated catalogue: places, trailers standing',
              result: `${map.length.toLocaleString('en')} places, ${standing.toLocaleString('en')} trailers`,
            },
            ...yardRows,
          ],
        },
        {
          name: `Writes (POST /api/tasks, ${opts.writeConnections} connections, ${opts.writeSeconds} s, auto-assignment on, a webhook on every event)`,
          rows: [
            {
              measure: 'tasks created per second, failed requests',
              result: `${fmt(rate, 0)}/s, ${writes.m.failed} failed`,
              budget: `≥ ${budgets.writesPerSecond}/s, none failed`,
              ok: rate >= budgets.writesPerSecond && writes.m.failed === 0,
            },
            { measure: 'POST latency p50 / p99', result: `${fmt(w.p50)} / ${fmt(w.p99)} ms` },
            {
              measure: `meanwhile: ${opts.drivers} drivers online and clocked in`,
              result: `${writes.completions} completions, ${assigned} auto-assignments`,
            },
            deliveredRow(writes.delivered),
          ],
        },
        {
          name: `Gate entries (POST /api/gate/entries, ${opts.writeConnections} connections, ${opts.writeSeconds} s, a new trailer each)`,
          rows: [
            {
              measure: 'POST /gate/entries: visits opened per second, failed requests',
              result: `${fmt(entryRate, 0)}/s, ${entries.failed} failed`,
              budget: `≥ ${budgets.entriesPerSecond}/s, none failed`,
              ok: entryRate >= budgets.entriesPerSecond && entries.failed === 0,
            },
            { measure: 'POST /gate/entries latency p50 / p99', result: `${fmt(e.p50)} / ${fmt(e.p99)} ms` },
          ],
        },
        {
          name: `Other systems (POST /api/tasks with an API key, ${opts.writeConnections} connections, ${opts.writeSeconds} s, a webhook on every event)`,
          rows: integration,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    tmp.remove();
  }
}

interface Delivered {
  /** Events the receiver got while the row ran, and in all once the queue ran dry. */
  during: number;
  total: number;
  /** Seconds from the row's end until nothing more arrived for a second. */
  after: number;
}

/** Runs a row's writes, then waits for their events to reach the receiver: the next row starts clean. */
async function delivering<T>(
  receiver: Receiver,
  run: () => Promise<T>,
): Promise<T & { delivered: Delivered }> {
  const before = receiver.received();
  const result = await run();
  const during = receiver.received() - before;
  const after = await receiver.drained();
  return { ...result, delivered: { during, total: receiver.received() - before, after } };
}

const deliveredRow = (d: Delivered): Row => ({
  measure: 'meanwhile: webhook events delivered (one in flight), in all once the queue ran dry',
  result: `${d.during}, ${d.total} (${fmt(d.after)} s later)`,
});

interface Read {
  name: string;
  path: string;
  budget?: { p50?: number; p99?: number };
}

const budgetText = (read: Read) =>
  [
    read.budget?.p50 === undefined ? '' : `p50 ≤ ${read.budget.p50} ms`,
    read.budget?.p99 === undefined ? '' : `p99 ≤ ${read.budget.p99} ms`,
  ]
    .filter(Boolean)
    .join(', ');

/** One endpoint read over and over on one connection for `seconds`: its latency row, against its budget. */
async function measureRead(
  url: string,
  token: string,
  read: Read,
  seconds: number,
  log: (line: string) => void,
): Promise<Row> {
  log(`REST: ${read.name}`);
  // Warm up: the first call of a statement prepares it and pulls its pages into the cache.
  try {
    for (let i = 0; i < 3; i++) await api(`${url}${read.path}`, 'GET', token);
  } catch (err) {
    // An endpoint that fails is a row that says so; the other endpoints are still measured.
    return {
      measure: read.name,
      result: `failed: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`,
      budget: budgetText(read) || undefined,
      ok: false,
    };
  }
  const m = await cannon({
    url: `${url}${read.path}`,
    connections: 1,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  return latencyRow(read, m);
}

/** A read's latency row (p50 / p99, answers per second), against its budget. */
function latencyRow(read: Read, m: Measured): Row {
  const p = percentiles(m.latencies, 2);
  const checks = [
    ...(read.budget?.p50 === undefined ? [] : [p.p50 <= read.budget.p50]),
    ...(read.budget?.p99 === undefined ? [] : [p.p99 <= read.budget.p99]),
  ];
  return {
    measure: read.name,
    result: `p50 ${fmt(p.p50, 2)} / p99 ${fmt(p.p99, 2)} ms, ${fmt(m.ok / m.seconds, 0)} req/s${
      m.failed ? `, ${m.failed} failed` : ''
    }`,
    budget: budgetText(read) || undefined,
    ok: checks.length ? checks.every(Boolean) && m.failed === 0 : undefined,
  };
}

/**
 * Issue 31: CONCURRENT_SEARCHES clients search over and over while one more loads the dashboard stats, as
 * a screen does beside a busy searcher. The stats start half a second into the searches and stop half a
 * second before them, so every stats request meets the searches in full.
 */
async function measureUnderSearches(
  url: string,
  token: string,
  seconds: number,
  log: (line: string) => void,
): Promise<Row[]> {
  log(`REST: ${CONCURRENT_SEARCHES} clients searching, and the stats meanwhile`);
  const headers = { authorization: `Bearer ${token}` };
  // Warm up as many searches at once: on SQLite each read thread builds its own search index at its first.
  for (let i = 0; i < 2; i++)
    await Promise.all(
      Array.from({ length: CONCURRENT_SEARCHES }, () => api(`${url}${SEARCH_PATH}`, 'GET', token)),
    );
  const searching = cannon({
    url: `${url}${SEARCH_PATH}`,
    connections: CONCURRENT_SEARCHES,
    duration: seconds + 1,
    headers,
  });
  await sleep(500);
  const stats = await cannon({ url: `${url}${STATS_PATH}`, connections: 1, duration: seconds, headers });
  return [
    latencyRow(
      {
        name: `search, ${CONCURRENT_SEARCHES} concurrent clients`,
        path: SEARCH_PATH,
        budget: { p99: SEARCHES_P99_MS },
      },
      await searching,
    ),
    latencyRow(
      {
        name: `GET /api/dashboard/stats while ${CONCURRENT_SEARCHES} searches run`,
        path: STATS_PATH,
        budget: { p99: STATS_UNDER_SEARCHES_P99_MS },
      },
      stats,
    ),
  ];
}

async function runWrites(
  url: string,
  headers: Record<string, string>,
  logins: { role: string; email: string; password: string }[],
  opts: RestOptions,
  log: (line: string) => void,
): Promise<{ m: Measured; completions: number; startedAt: number }> {
  log(`writes: ${opts.drivers} drivers log in and clock in`);
  const drivers = await Promise.all(
    logins
      .filter((l) => l.role === 'conductor')
      .slice(0, opts.drivers)
      .map(async (l) => {
        const token = await login(url, l.email, l.password);
        // Logging in makes them online; the entrada may already be there (the yard has a shift running).
        await fetch(`${url}/api/timeclock/punch?clock_type=entrada`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        return token;
      }),
  );
  let running = true;
  let completions = 0;
  // Each driver finishes their task now and then; the engine gives them the next one from the pool.
  const work = drivers.map(async (token) => {
    while (running) {
      await sleep(500 + Math.random() * 1000);
      const active = await fetch(`${url}/api/tasks/my-active`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!active.ok) continue;
      const { id } = (await active.json()) as { id: string };
      const done = await fetch(`${url}/api/tasks/${id}/complete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      if (done.ok) completions += 1;
    }
  });
  log(`writes: POST /api/tasks for ${opts.writeSeconds} s`);
  const startedAt = Date.now();
  // A new trailer per request: one open task per trailer (CONTRACT §5). Each leaves through the gate: the
  // catalogue's places are mapped and the destination's room checked (CONTRACT §17), and a gate never
  // fills, so thousands of writes meet no 409.
  const m = await postEach(url, headers, opts, '/api/tasks', (n) => ({
    title: 'Mover',
    origin: `Campa ${'ABCDEF'[n % 6]}-${(n % 30) + 1}`,
    destination: GATE,
    trailer_id: `BW-${n}`,
    priority: n % 7 ? 'normal' : 'high',
    vehicle_type: n % 8 ? 'semiremolque' : 'semiremolque_out_km0',
  }));
  running = false;
  await Promise.all(work);
  return { m, completions, startedAt };
}

/**
 * Trucks entering as fast as the gate lets them (CONTRACT §19): each drops a new trailer (one plate per
 * request) at the bench's campa, so every entry locks the place, checks its room, fills the trailer's
 * record and places it, as Portería does.
 */
async function runGateEntries(
  url: string,
  headers: Record<string, string>,
  campaId: string,
  opts: RestOptions,
  log: (line: string) => void,
): Promise<Measured> {
  log(`gate: POST /api/gate/entries for ${opts.writeSeconds} s`);
  return postEach(url, headers, opts, '/api/gate/entries', (n) => ({
    truck_plate: `${String(n % 10_000).padStart(4, '0')} BNC`,
    carrier: `Transportes Banco ${n % 12}`,
    trailer: {
      trailer_id: `BG-${n}`,
      load_state: n % 3 ? 'cargado' : 'vacio',
      seal: n % 3 ? String(100_000 + n) : null,
      location_id: campaId,
    },
  }));
}

/** POSTs to `path` over the writes' connections for their seconds, the body of the nth request `body(n)`. */
function postEach(
  url: string,
  headers: Record<string, string>,
  opts: RestOptions,
  path: string,
  body: (n: number) => unknown,
): Promise<Measured> {
  let n = 0;
  return cannon({
    url,
    connections: opts.writeConnections,
    duration: opts.writeSeconds,
    headers,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (req) => {
          n += 1;
          req.body = JSON.stringify(body(n));
          return req;
        },
      },
    ],
  });
}
