// Other systems (issue 29 item 6, CONTRACT §21): a webhook subscribed to every event, delivered to a
// receiver on the box, from the writes' rows on (issue 31 item 1: the writes' budgets hold with it); then a
// WMS creating tasks through an API key, first as fast as the key lets it (API_KEY_RATE_PER_MIN raised for
// the bench: startServer's env in rest.ts), then at a steady 100 events a second, timing each task.created
// from its POST's answer (the change committed) to the receiver.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_SCOPES, WEBHOOK_EVENTS } from '@shared/enums';
import type { ApiClientCreated, WebhookPayload } from '@shared/schemas';
import { GATE } from '../generator/vocabulary';
import type { Row } from './report';
import type { EngineName } from './sections';
import { api } from './server';
import { fmt, percentiles, sleep } from './stats';

export const INTEGRATION_BUDGETS: Record<EngineName, { keyWritesPerSecond: number }> = {
  sqlite: { keyWritesPerSecond: 400 },
  postgres: { keyWritesPerSecond: 300 },
};
/** Issue 29: a task.created reaches the receiver within this at the 99th percentile, at 100 events a second. */
const LAG_P99_MS = 1_000;
const STEADY_PER_SECOND = 100;
/** After the last steady POST, how long the receiver waits for the stragglers before counting them lost. */
const DRAIN_MS = 30_000;

export interface Receiver {
  url: string;
  /** When each task's task.created arrived. */
  created: Map<string, number>;
  /** Every event received so far. */
  received: () => number;
  /**
   * Resolves once nothing more has arrived for a second (at most DRAIN_MS): the seconds from the call to
   * the last arrival (0 when nothing arrived).
   */
  drained: () => Promise<number>;
  close: () => void;
}

/** The receiver: answers 204 at once, and notes when each task's task.created arrived. */
function startReceiver(): Promise<Receiver> {
  const created = new Map<string, number>();
  let received = 0;
  let lastArrival = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const event = JSON.parse(body) as WebhookPayload;
      received += 1;
      lastArrival = performance.now();
      const task = event.data.task as { id: string } | undefined;
      if (event.type === 'task.created' && task) created.set(task.id, performance.now());
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        created,
        received: () => received,
        drained: async () => {
          const start = performance.now();
          for (let seen = -1; seen !== received && performance.now() - start < DRAIN_MS;) {
            seen = received;
            await sleep(1000);
          }
          return Math.max(0, lastArrival - start) / 1000;
        },
        close: () => server.close(),
      }),
    ),
  );
}

export interface IntegrationRun {
  /** POSTs new tasks as fast as it can with these headers for the writes' seconds (rest.ts postEach). */
  flood: (headers: Record<string, string>) => Promise<{ ok: number; failed: number; seconds: number }>;
  seconds: number;
}

/** Runs `work` with a receiver on the box and a webhook on every event subscribed to it. */
export async function withReceiver<T>(
  url: string,
  adminToken: string,
  work: (receiver: Receiver) => Promise<T>,
): Promise<T> {
  const receiver = await startReceiver();
  try {
    await api(`${url}/api/admin/webhooks`, 'POST', adminToken, {
      url: receiver.url,
      events: [...WEBHOOK_EVENTS],
    });
    return await work(receiver);
  } finally {
    receiver.close();
  }
}

export async function runIntegration(
  url: string,
  adminToken: string,
  engine: EngineName,
  receiver: Receiver,
  run: IntegrationRun,
  log: (line: string) => void,
): Promise<Row[]> {
  const { key } = await api<ApiClientCreated>(`${url}/api/admin/api-clients`, 'POST', adminToken, {
    name: 'WMS del banco',
    scopes: [...API_SCOPES],
  });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  await receiver.drained();

  log('integration: POST /api/tasks through an API key, a webhook on every event');
  const createdBefore = receiver.created.size;
  const flood = await run.flood(headers);
  const rate = flood.ok / flood.seconds;
  // The flood's events are delivered first (one in flight per endpoint): the lag is timed from an empty
  // queue.
  const drained = await receiver.drained();

  log(`integration: ${STEADY_PER_SECOND} task creations a second through the key, timed to the receiver`);
  const answered = new Map<string, number>();
  let failed = 0;
  const total = STEADY_PER_SECOND * run.seconds;
  const start = performance.now();
  const posts: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    await sleep(Math.max(0, start + (i * 1000) / STEADY_PER_SECOND - performance.now()));
    posts.push(
      fetch(`${url}/api/tasks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: 'Mover',
          origin: `Muelle ${(i % 20) + 1}`,
          destination: GATE,
          trailer_id: `WMS-${i}`,
        }),
      }).then(async (res) => {
        if (!res.ok) return void (failed += 1);
        answered.set(((await res.json()) as { id: string }).id, performance.now());
      }),
    );
  }
  await Promise.all(posts);
  const drainUntil = performance.now() + DRAIN_MS;
  while ([...answered.keys()].some((id) => !receiver.created.has(id)) && performance.now() < drainUntil)
    await sleep(50);
  const lags = [...answered].flatMap(([id, at]) => {
    const arrived = receiver.created.get(id);
    return arrived === undefined ? [] : [arrived - at];
  });
  const lost = answered.size - lags.length;
  const lag = percentiles(lags);
  const budget = INTEGRATION_BUDGETS[engine].keyWritesPerSecond;
  return [
    {
      measure: 'POST /api/tasks through an API key, a webhook on every event: created per second, failed',
      result: `${fmt(rate, 0)}/s, ${flood.failed} failed`,
      budget: `≥ ${budget}/s, none failed`,
      ok: rate >= budget && flood.failed === 0,
    },
    {
      measure: "meanwhile: the flood's events delivered (one in flight), in",
      result: `${receiver.created.size - createdBefore} task.created, ${fmt(drained)} s`,
    },
    {
      measure: `webhook delivery lag at ${STEADY_PER_SECOND} events/s (answer → receiver), p50 / p99; not delivered`,
      result: `${fmt(lag.p50)} / ${fmt(lag.p99)} ms; ${lost + failed}`,
      budget: `p99 ≤ ${LAG_P99_MS} ms, none lost`,
      ok: lag.p99 <= LAG_P99_MS && lost + failed === 0,
    },
  ];
}
