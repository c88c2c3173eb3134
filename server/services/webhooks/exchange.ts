// One signed POST to a webhook's URL (CONTRACT §21 "Delivery", "Targets"): the name is resolved once, every
// address it resolves to is checked, and the socket connects to the address checked (the request's own
// `lookup` answers it), so a DNS answer cannot change between the check and the connection. 10 s for the
// whole exchange, at most 64 kB of the answer read, no redirect followed (3xx is a failure).
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import dns from 'node:dns';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK } from '@shared/constants';
import { WEBHOOK_ERR, WEBHOOK_FAILURE } from '@shared/labels';
import { config } from '../../config';
import { isWebhookAddress, type Resolve } from '../../http/outbound';

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
let resolver: Resolve = systemResolve;

/** Tests stub the resolution of the targets' names (a name that resolves to a refused address). */
export function resolveTargetsWith(resolve: Resolve | undefined): void {
  resolver = resolve ?? systemResolve;
}

/** How an attempt went: a status code when an answer came, an error (Spanish) when it failed. */
export interface ExchangeResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export const delivered = (r: ExchangeResult): boolean => r.error === null;

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether a webhook may be created with this URL: its address, or every address its name resolves to now,
 * allowed (a name that does not resolve yet is taken: sending will tell).
 */
export async function allowedTarget(url: string): Promise<boolean> {
  try {
    return (await checkedAddress(bare(new URL(url).hostname))) !== null;
  } catch {
    return true;
  }
}

/**
 * The address to connect to: the URL's own, or the first its name resolves to; null when any of them is
 * refused (one refused answer among good ones too: a rebinding name would be tried in turn).
 */
async function checkedAddress(host: string): Promise<dns.LookupAddress | null> {
  const found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await resolver(host);
  if (!found.length || found.some((a) => !isWebhookAddress(a.address, config.webhookAllowLoopback)))
    return null;
  return found[0]!;
}

/** How long a kept connection may wait idle for the next delivery: under the 5 s most servers keep one. */
const IDLE_MS = 4_000;
/** Kept-alive connections per target (origin and the address checked): a delivery does not open its own. */
const agents = new Map<string, http.Agent>();

function agentFor(url: URL, to: dns.LookupAddress): http.Agent {
  const key = `${url.origin} ${to.address}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxFreeSockets: 1, timeout: IDLE_MS };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every kept connection (the sender stopping). */
export function closeKeptConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * The Standard Webhooks signature, `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's
 * bytes (WEBHOOK.secretPrefix + base64). Node's own HMAC: the `standardwebhooks` package signs with a
 * SHA-256 written in JavaScript, ~15 times dearer per delivery; tests verify every signature with it.
 */
function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK.secretPrefix.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** A socket lookup that answers the address already checked, whatever it is asked. */
const fixedLookup =
  (to: dns.LookupAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [to]);
    else callback(null, to.address, to.family);
  };

/**
 * Sends `body` signed with `secret` as message `id`. Never throws: a refusal, a network error, a timeout
 * or a non-2xx answer comes back as `error`. `timeoutMs`: the exchange's limit (tests shorten it).
 */
export async function exchange(
  target: { url: string; secret: string },
  message: { id: string; body: string },
  timeoutMs: number = WEBHOOK.timeoutMs,
): Promise<ExchangeResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): ExchangeResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const url = new URL(target.url);
  const host = bare(url.hostname);
  let to: dns.LookupAddress | null | 'timeout';
  if (net.isIP(host)) to = await checkedAddress(host);
  else {
    // The name's resolution counts in the exchange's time.
    const outOfTime = new AbortController();
    try {
      to = await Promise.race([
        checkedAddress(host),
        sleep(timeoutMs, 'timeout' as const, { signal: outOfTime.signal }),
      ]);
    } catch (err) {
      return done(null, WEBHOOK_FAILURE.network((err as NodeJS.ErrnoException).code ?? String(err)));
    } finally {
      outOfTime.abort();
    }
  }
  if (to === 'timeout') return done(null, WEBHOOK_FAILURE.timeout);
  if (!to) return done(null, WEBHOOK_ERR.addressRefused);
  // The receiver checks the timestamp against its own clock: the wall clock, deliberately not the server
  // clock (server/clock.ts), which tests move forward and which would make every signature look stale.
  const timestamp = Math.floor(Date.now() / 1000).toString();
  const signature = sign(target.secret, message.id, timestamp, message.body);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'TorreDeControl-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
  return new Promise((resolveResult) => {
    let settled = false;
    let req: http.ClientRequest;
    const finish = (statusCode: number | null, error: string | null, { keep = false } = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // An answer read to its end leaves its connection to the next delivery; anything else closes it.
      if (!keep) req.destroy();
      resolveResult(done(statusCode, error));
    };
    const timer = setTimeout(
      () => finish(null, WEBHOOK_FAILURE.timeout),
      Math.max(0, timeoutMs - (performance.now() - started)),
    );
    const send = (retry: boolean) => {
      const request = url.protocol === 'https:' ? https.request : http.request;
      req = request(url, { method: 'POST', lookup: fixedLookup(to), agent: agentFor(url, to), headers });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return; // the attempt's own end (a timeout, 64 kB read) destroying the request
        // A kept connection the receiver closed as it was reused: the same attempt once more on a new one
        // (the receiver may then see the event twice: at least once).
        if (retry && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) send(false);
        else finish(null, WEBHOOK_FAILURE.network(err.code ?? err.message));
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const outcome = (): [number, string | null] => {
          if (status >= 200 && status < 300) return [status, null];
          if (status >= 300 && status < 400) return [status, WEBHOOK_FAILURE.redirect(status)];
          return [status, WEBHOOK_FAILURE.status(status)];
        };
        // The answer is read (so a receiver that writes its body before closing sees it taken) up to 64 kB.
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= WEBHOOK.answerMaxBytes) finish(...outcome());
        });
        res.on('end', () => finish(...outcome(), { keep: true }));
        res.on('error', () => finish(...outcome()));
      });
      req.end(message.body);
    };
    send(true);
  });
}
