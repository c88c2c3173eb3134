// The simulated screens: a worker thread holding its share of them (500 phones and wall screens are 500
// machines: one event loop decoding every copy in turn would time the bench, not the server). Each
// screen follows one watched task, either live (a Socket.IO client, optionally resyncing over REST once
// at connect, as the client does) or by SPEC §9 polling (staff every 3 s: tasks, stats, online
// drivers, rankings, notifications, admins also pending users; drivers every 5 s: swap-available and
// my-active). Per version of the watched task the thread counts how many of its screens show it, and
// when: the sum (mean staleness) and the latest arrival (fan-out to the last screen).
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { io as ioClient, type Socket } from 'socket.io-client';
import { BALANCER_READ_RETRIES, POLL_MS, retryAfterMs } from '@shared/constants';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/events';
import { inBatches } from './stats';

export type ScreenKind = 'admin' | 'staff' | 'driver';
export interface Screen {
  token: string;
  kind: ScreenKind;
}
export type ScreenMode = 'socket' | 'poll';

interface Init {
  benchScreens: true;
  url: string;
  screens: Screen[];
  mode: ScreenMode;
  /** Socket mode: load the screen's data over REST once after connecting. */
  resync: boolean;
  /** Socket mode: reconnect after a lost connection (as the client does), then resync over REST. */
  reconnect?: boolean;
  watch: string;
  version: number;
}

type ToWorker = { report: true } | { close: true };
/** A version of the watched task and the moments each screen that shows it started showing it. */
export type VersionSeen = [version: number, arrivals: number[]];
export interface ThreadReport {
  versions: VersionSeen[];
  /** Completion time of every HTTP request the screens made. */
  requests: number[];
  events: number;
  errors: number;
  /** Socket mode: how many times a screen got its connection back (after a node's loss, say). */
  reconnects: number;
}
type FromWorker = { ready: true } | { version: number; at: number } | { report: ThreadReport };

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Absolute time in ms, comparable between threads. */
export const clock = () => performance.timeOrigin + performance.now();

const STAFF_GETS = [
  '/tasks',
  '/dashboard/stats',
  '/dashboard/online-drivers',
  '/dashboard/rankings',
  '/notifications',
];
const ADMIN_GETS = [...STAFF_GETS, '/admin/pending-users'];
const DRIVER_GETS = ['/tasks/swap-available', '/tasks/my-active'];
/** The answer in which each kind of screen sees the watched task. */
const SHOWS_TASK: Record<ScreenKind, string> = {
  admin: '/tasks',
  staff: '/tasks',
  driver: '/tasks/swap-available',
};
const GETS: Record<ScreenKind, string[]> = { admin: ADMIN_GETS, staff: STAFF_GETS, driver: DRIVER_GETS };
const INTERVAL: Record<ScreenKind, number> = {
  admin: POLL_MS.dashboard,
  staff: POLL_MS.dashboard,
  driver: POLL_MS.swapTasks,
};

async function screensThread(init: Init): Promise<void> {
  const port = parentPort!;
  const seen = new Map<number, { times: number[]; max: number }>();
  const requests: number[] = [];
  let events = 0;
  let errors = 0;
  let reconnects = 0;
  const timers: NodeJS.Timeout[] = [];
  const sockets: Client[] = [];

  const show = (last: { version: number }, version: number) => {
    const at = clock();
    for (let v = last.version + 1; v <= version; v++) {
      const entry = seen.get(v) ?? { times: [], max: 0 };
      entry.times.push(at);
      entry.max = Math.max(entry.max, at);
      seen.set(v, entry);
      if (entry.times.length === init.screens.length)
        port.postMessage({ version: v, at: entry.max } satisfies FromWorker);
    }
    last.version = Math.max(last.version, version);
  };

  /** A GET as the client sends it: asked again after a balancer's 503 + Retry-After (client/src/api.ts). */
  const get = async (path: string, token: string): Promise<Response> => {
    for (let retriesLeft = BALANCER_READ_RETRIES; ; retriesLeft--) {
      const res = await fetch(`${init.url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const wait = res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : null;
      if (wait === null || retriesLeft === 0) return res;
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };

  /** One round of a screen's GETs, all at once as a browser sends them. */
  const round = async (screen: Screen, last: { version: number }) => {
    await Promise.all(
      GETS[screen.kind].map(async (p) => {
        try {
          const res = await get(p, screen.token);
          const body = (await res.json()) as unknown;
          requests.push(clock());
          if (!res.ok && res.status !== 404) errors += 1;
          if (p === SHOWS_TASK[screen.kind] && Array.isArray(body)) {
            const task = (body as { id: string; version: number }[]).find((t) => t.id === init.watch);
            if (task) show(last, task.version);
          }
        } catch {
          errors += 1;
        }
      }),
    );
  };

  const states = init.screens.map(() => ({ version: init.version }));
  if (init.mode === 'socket') {
    const connect = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const socket: Client = ioClient(init.url, {
          auth: { token: init.screens[i].token },
          transports: ['websocket'],
          // The client's own reconnection (socket.io-client's defaults: 1 s, randomised, up to 5 s).
          reconnection: init.reconnect ?? false,
          forceNew: true,
        });
        sockets.push(socket);
        // Back after a lost connection: what was missed meanwhile comes over REST, as the client resyncs.
        socket.io.on('reconnect', () => {
          reconnects += 1;
          void round(init.screens[i], states[i]);
        });
        socket.on('task:updated', ({ task }) => {
          events += 1;
          if (task.id === init.watch) show(states[i], task.version);
        });
        socket.once('connect', () => resolve(init.resync ? round(init.screens[i], states[i]) : undefined));
        socket.once('connect_error', reject);
      });
    await inBatches(
      init.screens.map((_, i) => i),
      connect,
    );
  } else {
    init.screens.forEach((screen, i) => {
      const every = INTERVAL[screen.kind];
      // Screens opened at random moments: their polls do not all land on the same tick.
      const start = setTimeout(() => {
        void round(screen, states[i]);
        timers.push(setInterval(() => void round(screen, states[i]), every));
      }, Math.random() * every);
      timers.push(start);
    });
  }

  port.on('message', (msg: ToWorker) => {
    if ('report' in msg) {
      const versions = [...seen].map(([v, e]): VersionSeen => [v, e.times]);
      port.postMessage({ report: { versions, requests, events, errors, reconnects } } satisfies FromWorker);
      return;
    }
    for (const t of timers) clearTimeout(t);
    for (const s of sockets) s.close();
    port.close();
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

/** A running group of screen threads. */
export interface Screens {
  /** Resolves with the moment the last screen of every thread shows `version`. */
  allShow: (version: number) => Promise<number>;
  report: () => Promise<ThreadReport>;
  close: () => Promise<void>;
}

/** Starts `threads` screen threads (screens dealt round-robin) and resolves once all are connected. */
export async function startScreens(
  opts: Omit<Init, 'benchScreens' | 'screens'> & { screens: Screen[]; threads: number },
): Promise<Screens> {
  const { threads, screens, ...rest } = opts;
  const shares = Array.from({ length: threads }, (_, w) =>
    screens.filter((_, i) => i % threads === w),
  ).filter((s) => s.length);
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(
    import.meta.url,
  )}); })`;
  const workers = await Promise.all(
    shares.map(
      (share) =>
        new Promise<Worker>((resolve, reject) => {
          const worker = new Worker(boot, {
            eval: true,
            workerData: { benchScreens: true, ...rest, screens: share } satisfies Init,
          });
          worker.once('error', reject);
          worker.once('message', () => resolve(worker));
        }),
    ),
  );

  // Per version: how many threads show it on all their screens, and the latest such moment.
  const done = new Map<number, { threads: number; last: number }>();
  const waiting = new Map<number, (at: number) => void>();
  for (const worker of workers)
    worker.on('message', (msg: FromWorker) => {
      if (!('version' in msg)) return;
      const entry = done.get(msg.version) ?? { threads: 0, last: 0 };
      entry.threads += 1;
      entry.last = Math.max(entry.last, msg.at);
      done.set(msg.version, entry);
      if (entry.threads === workers.length) waiting.get(msg.version)?.(entry.last);
    });

  return {
    allShow(version) {
      const entry = done.get(version);
      if (entry && entry.threads === workers.length) return Promise.resolve(entry.last);
      return new Promise((resolve) => waiting.set(version, resolve));
    },
    async report() {
      const parts = await Promise.all(
        workers.map(
          (w) =>
            new Promise<ThreadReport>((resolve) => {
              const onMessage = (msg: FromWorker) => {
                if (!('report' in msg)) return;
                w.off('message', onMessage);
                resolve(msg.report);
              };
              w.on('message', onMessage);
              w.postMessage({ report: true } satisfies ToWorker);
            }),
        ),
      );
      const versions = new Map<number, number[]>();
      for (const part of parts)
        for (const [v, times] of part.versions) versions.set(v, [...(versions.get(v) ?? []), ...times]);
      return {
        versions: [...versions],
        requests: parts.flatMap((p) => p.requests),
        events: parts.reduce((n, p) => n + p.events, 0),
        errors: parts.reduce((n, p) => n + p.errors, 0),
        reconnects: parts.reduce((n, p) => n + p.reconnects, 0),
      };
    },
    async close() {
      await Promise.all(
        workers.map((w) => {
          const exited = new Promise((resolve) => w.once('exit', resolve));
          w.postMessage({ close: true } satisfies ToWorker);
          return exited;
        }),
      );
    },
  };
}

if (!isMainThread && (workerData as Partial<Init> | undefined)?.benchScreens) {
  await screensThread(workerData as Init);
}
