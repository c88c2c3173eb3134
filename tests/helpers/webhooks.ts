// A local webhook receiver (CONTRACT §21): an HTTP server on 127.0.0.1 that records what it is sent and
// answers as the test says (a status, a delay, a body, no answer at all). Loopback is allowed to the
// webhooks while a test runs with it (WEBHOOK_ALLOW_LOOPBACK=1's config).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { WebhookPayload } from '@shared/schemas';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  payload: WebhookPayload;
}

/** What the receiver does with a request: the nth (from 0) it got. */
export type Answer = (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void;

export const answerWith =
  (status: number): Answer =>
  (_n, _req, res) => {
    res.writeHead(status).end();
  };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Connections it accepted so far (kept-alive ones carry several deliveries). */
  connections: () => number;
  answer: Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = answerWith(200)): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let connections = 0;
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    connections: () => connections,
    answer,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const n = received.length;
      received.push({ headers: req.headers, body, payload: JSON.parse(body) as WebhookPayload });
      receiver.answer(n, req, res);
    });
  });
  server.on('connection', (s) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** Verifies a delivery's Standard Webhooks signature with the secret (throws when it does not hold). */
export function verified(secret: string, r: Received): WebhookPayload {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as WebhookPayload;
}

/** Waits (real time) until `check` holds, or fails with what it last saw. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) expect.fail(`no llegó: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
