// Push against the SPEC's polling (SPEC §9 vs CONTRACT §9), same screens, same changes: S staff
// dashboards (a third each admin, manager, gestor) and D drivers having the swap type follow a pool swap
// task that staff edit once a second, over a demo-sized generated yard. Phase (a): every screen polls
// as SPEC §9 says. Phase (b): every screen holds a socket and resyncs once over REST at connect. Each
// phase runs on its own server process over a copy of the same database; measured: the server's CPU
// seconds (/proc/<pid>/stat), the HTTP requests it served, and the staleness of each screen (from the
// PUT leaving to the moment that screen shows the change: the poll answer that carries it, or the event).
// The CPU compared is the steady cost, over the changes once every screen is up: a screen connects once
// a shift but polls all shift long. What the sockets' connections and resyncs cost is reported beside it.
// Phase (c) is the floor of (b): the same screens on a bare Socket.IO server (bare-socket-server.ts) that
// broadcasts the same task at the same pace — what any push over Socket.IO costs here, so polling ÷ (c)
// is the most that polling ÷ push could be on this box.
import type { Role } from '@shared/enums';
import {
  clock,
  startScreens,
  type Screen,
  type ScreenKind,
  type ScreenMode,
  type Screens,
  type ThreadReport,
} from './clients';
import { createDatabase, type BenchDatabase } from './database';
import type { Section } from './report';
import {
  api,
  cpuSeconds,
  login,
  loginAll,
  seedAccounts,
  startBareSocketServer,
  startServer,
  tempDir,
} from './server';
import { fmt, mean, percentiles, ratio, sleep } from './stats';
import { generateYardInto } from './yard';
import { GATE } from '../generator/vocabulary';

export interface PushPollOptions {
  staff: number;
  drivers: number;
  /** Length of each phase's measured window. */
  seconds: number;
  changeEveryMs: number;
  threads: number;
  seed: number;
}

interface PhaseResult {
  mode: ScreenMode;
  /** The server's CPU while the screens connected and resynced (push) or started polling. */
  connectCpu: number;
  windowSeconds: number;
  /** The server's CPU over the changes, every screen already up: the steady cost compared. */
  cpu: number;
  requests: number;
  events: number;
  errors: number;
  /** Staleness of every (change, screen) pair seen, ms. */
  staleness: number[];
  /** Share of (change, screen) pairs that were shown at all before the tail ended. */
  shown: number;
  /** The watched task as the screens got it last (the bare server broadcasts the same bytes). */
  task: WatchedTask;
}

type WatchedTask = { id: string; version: number };

/** The changes of a phase: one every changeEveryMs over the window, each sent by `change` (its version). */
async function paced(opts: PushPollOptions, change: (i: number) => Promise<number>) {
  const sentAt = new Map<number, number>();
  const changes = Math.max(1, Math.round((opts.seconds * 1000) / opts.changeEveryMs));
  const start = clock();
  for (let i = 0; i < changes; i++) {
    await sleep(start + i * opts.changeEveryMs - clock());
    const sent = clock();
    sentAt.set(await change(i), sent);
  }
  await sleep(start + changes * opts.changeEveryMs - clock());
  return sentAt;
}

/** Issue 31: polling costs the server at least this many times push's CPU (500 screens, 1 change a second). */
const CPU_RATIO_MIN = 50;

/** Long enough after the last change for every polling screen to have polled once more. */
const TAIL_MS = 8_000;

async function phase(
  mode: ScreenMode,
  database: BenchDatabase,
  admin: { email: string; password: string },
  accounts: { email: string; kind: ScreenKind }[],
  opts: PushPollOptions,
): Promise<PhaseResult> {
  const server = await startServer(database);
  try {
    const adminToken = await login(server.url, admin.email, admin.password);
    const tokens = await loginAll(server.url, accounts);
    const screenList = tokens.map((token, i): Screen => ({ token, kind: accounts[i].kind }));
    // Swap tasks are never auto-assigned: the watched task stays in the pool, seen by every screen. It
    // heads out through the gate, which never fills (CONTRACT §17): whatever the generated yard holds.
    const task = await api<WatchedTask>(`${server.url}/api/tasks`, 'POST', adminToken, {
      title: 'Mover',
      origin: 'Zona Swap 1',
      destination: GATE,
      trailer_id: 'SW-BENCH',
      vehicle_type: 'swap',
    });

    const cpu0 = cpuSeconds(server.pid);
    const screens = await startScreens({
      url: server.url,
      mode,
      resync: true,
      watch: task.id,
      version: task.version,
      threads: opts.threads,
      screens: screenList,
    });
    const cpuUp = cpuSeconds(server.pid);
    const tUp = clock();
    let report: ThreadReport;
    try {
      const sentAt = await paced(opts, async (i) => {
        const updated = await api<WatchedTask>(`${server.url}/api/tasks/${task.id}`, 'PUT', adminToken, {
          description: `Cambio ${i + 1}`,
        });
        return updated.version;
      });
      const windowEnd = clock();
      const cpu1 = cpuSeconds(server.pid);
      const last = Math.max(...sentAt.keys());
      await Promise.race([screens.allShow(last), sleep(TAIL_MS)]);
      report = await screens.report();
      const staleness: number[] = [];
      for (const [v, arrivals] of report.versions) {
        const sent = sentAt.get(v);
        if (sent !== undefined) for (const at of arrivals) staleness.push(at - sent);
      }
      return {
        mode,
        connectCpu: cpuUp - cpu0,
        windowSeconds: (windowEnd - tUp) / 1000,
        cpu: cpu1 - cpuUp,
        requests: report.requests.filter((t) => t >= tUp && t <= windowEnd).length + sentAt.size,
        events: report.events,
        errors: report.errors,
        staleness,
        shown: staleness.length / (sentAt.size * screenList.length),
        task: await api<WatchedTask>(`${server.url}/api/tasks/${task.id}`, 'GET', adminToken),
      };
    } finally {
      await screens.close();
    }
  } finally {
    await server.stop();
  }
}

/** Phase (c): the server CPU of a bare Socket.IO broadcast of the same task, at the same pace, to the same screens. */
async function bareBroadcastCpu(
  task: WatchedTask,
  screens: Screen[],
  opts: PushPollOptions,
): Promise<{ cpu: number; windowSeconds: number }> {
  const bare = await startBareSocketServer();
  let sockets: Screens | undefined;
  try {
    sockets = await startScreens({
      url: bare.url,
      mode: 'socket',
      resync: false,
      watch: task.id,
      version: task.version,
      threads: opts.threads,
      screens,
    });
    const cpuUp = cpuSeconds(bare.pid);
    const tUp = clock();
    const sentAt = await paced(opts, async (i) => {
      const version = task.version + i + 1;
      await fetch(`${bare.url}/emit`, {
        method: 'POST',
        body: JSON.stringify({ task: { ...task, version } }),
      });
      return version;
    });
    const result = { cpu: cpuSeconds(bare.pid) - cpuUp, windowSeconds: (clock() - tUp) / 1000 };
    await Promise.race([sockets.allShow(Math.max(...sentAt.keys())), sleep(TAIL_MS)]);
    return result;
  } finally {
    await sockets?.close();
    await bare.stop();
  }
}

export async function runPushPoll(opts: PushPollOptions, log: (line: string) => void): Promise<Section[]> {
  const tmp = tempDir('pushpoll');
  const databases: BenchDatabase[] = [];
  try {
    const base = await createDatabase(tmp.dir, 'base');
    databases.push(base);
    log('push vs polling: generating a demo-sized yard');
    const yard = await generateYardInto(base, { seed: opts.seed });
    const admin = yard.logins[0];
    const staffRoles: Role[] = ['admin', 'manager', 'gestor'];
    const roles: Role[] = [
      ...Array.from({ length: opts.staff }, (_, i) => staffRoles[i % 3]),
      ...Array.from({ length: opts.drivers }, (): Role => 'conductor'),
    ];
    const accounts = (await seedAccounts(base, roles, ['semiremolque', 'swap'], 'screen')).map((a) => ({
      email: a.email,
      kind: (a.role === 'admin' ? 'admin' : a.role === 'conductor' ? 'driver' : 'staff') as ScreenKind,
    }));

    const results: PhaseResult[] = [];
    for (const mode of ['poll', 'socket'] as const) {
      const copy = await base.copy(mode);
      databases.push(copy);
      log(`push vs polling: ${mode === 'poll' ? 'SPEC §9 polling' : 'push'} phase, ${opts.seconds} s`);
      results.push(await phase(mode, copy, admin, accounts, opts));
    }
    const [poll, push] = results;
    log(`push vs polling: the same screens on a bare Socket.IO server, ${opts.seconds} s`);
    const bare = await bareBroadcastCpu(
      push.task,
      accounts.map(({ kind }): Screen => ({ token: '', kind })),
      opts,
    );
    const stale = (r: PhaseResult) => mean(r.staleness);
    const p95 = (r: PhaseResult) => percentiles(r.staleness, 0).p95;
    const screens = `${opts.staff} staff + ${opts.drivers} driver screens`;
    // (c) has a figure where the bare server has one: its CPU over the same changes and screens.
    const rows: [string, string, string, string, string][] = [
      [
        'server CPU while the screens connect and resync (not compared)',
        `${fmt(poll.connectCpu, 2)} s`,
        `${fmt(push.connectCpu, 2)} s`,
        '',
        '',
      ],
      [
        'measured window (the changes, every screen up)',
        `${fmt(poll.windowSeconds)} s`,
        `${fmt(push.windowSeconds)} s`,
        `${fmt(bare.windowSeconds)} s`,
        '',
      ],
      [
        'server CPU',
        `${fmt(poll.cpu, 2)} s`,
        `${fmt(push.cpu, 2)} s`,
        `${fmt(bare.cpu, 2)} s (a ÷ c ${ratio(poll.cpu, bare.cpu)})`,
        ratio(poll.cpu, push.cpu),
      ],
      [
        'server CPU, share of one core',
        `${fmt((100 * poll.cpu) / poll.windowSeconds)} %`,
        `${fmt((100 * push.cpu) / push.windowSeconds)} %`,
        `${fmt((100 * bare.cpu) / bare.windowSeconds)} %`,
        '',
      ],
      [
        'HTTP requests served',
        String(poll.requests),
        String(push.requests),
        '',
        ratio(poll.requests, push.requests),
      ],
      ['task events pushed to the screens', String(poll.events), String(push.events), '', ''],
      [
        'mean staleness of the screens',
        `${fmt(stale(poll), 0)} ms`,
        `${fmt(stale(push), 0)} ms`,
        '',
        ratio(stale(poll), stale(push)),
      ],
      ['p95 staleness', `${fmt(p95(poll), 0)} ms`, `${fmt(p95(push), 0)} ms`, '', ''],
      ['changes shown on every screen', `${fmt(100 * poll.shown)} %`, `${fmt(100 * push.shown)} %`, '', ''],
      ['failed requests', String(poll.errors), String(push.errors), '', ''],
    ];
    const details = [
      `${screens}; one edit of a pool swap task every ${opts.changeEveryMs / 1000} s for ${opts.seconds} s per phase.`,
      '',
      '| | (a) SPEC §9 polling | (b) push | (c) a bare Socket.IO broadcast | (a) ÷ (b) |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    return [
      {
        name: `Push vs SPEC polling (${screens}, ${opts.seconds} s each, 1 change/${opts.changeEveryMs / 1000} s)`,
        rows: [
          {
            measure: 'server CPU, polling / push',
            result: `${fmt(poll.cpu, 2)} / ${fmt(push.cpu, 2)} s (${ratio(poll.cpu, push.cpu)})`,
            budget: `≥ ${CPU_RATIO_MIN}×`,
            ok: poll.cpu >= CPU_RATIO_MIN * push.cpu,
          },
          {
            measure: 'server CPU, push ÷ a bare Socket.IO broadcast of the same changes (its floor)',
            result: `${fmt(push.cpu, 2)} / ${fmt(bare.cpu, 2)} s (${ratio(push.cpu, bare.cpu)}); polling ÷ bare ${ratio(poll.cpu, bare.cpu)}`,
          },
          {
            measure: 'HTTP requests served, polling / push',
            result: `${poll.requests} / ${push.requests} (${ratio(poll.requests, push.requests)})`,
          },
          {
            measure: 'mean staleness, polling / push',
            result: `${fmt(stale(poll), 0)} / ${fmt(stale(push), 0)} ms (${ratio(stale(poll), stale(push))})`,
          },
        ],
        details,
      },
    ];
  } finally {
    for (const database of databases) await database.drop();
    tmp.remove();
  }
}
