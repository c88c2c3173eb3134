// The guard on the server's own outbound connections (CONTRACT §23; server/http/outbound.ts): which
// addresses count as public, and an agent that never connects to any other — a name that resolves to
// loopback is refused before a socket is opened, while a local TLS server counts the connections.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutboundRefusedError,
  checkedLookup,
  isPublicAddress,
  isWebhookAddress,
  outboundAgent,
  type Resolve,
} from '../../server/http/outbound';

describe('isPublicAddress', () => {
  const notPublic = [
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.255.0.9'],
    ['RFC 1918 10/8', '10.0.0.1'],
    ['RFC 1918 172.16/12', '172.16.0.1'],
    ['RFC 1918 172.16/12, its end', '172.31.255.255'],
    ['RFC 1918 192.168/16', '192.168.1.10'],
    ['carrier-grade NAT 100.64/10', '100.64.0.1'],
    ['carrier-grade NAT, its end', '100.127.255.254'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['unspecified', '0.0.0.0'],
    ['this network 0/8', '0.1.2.3'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 unspecified', '::'],
    ['IPv6 loopback', '::1'],
    ['IPv6 loopback in brackets', '[::1]'],
    ['unique local fc00::/7', 'fc00::1'],
    ['unique local fd00::/8', 'fd12:3456::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 link-local, end of fe80::/10', 'febf::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped loopback, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
    ['IPv4-mapped metadata address', '::ffff:a9fe:a9fe'],
    ['IPv4-mapped private, upper case', '::FFFF:10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['6to4 of a private address', '2002:c0a8:101::1'],
    ['a name', 'localhost'],
    ['not an address', '999.1.1.1'],
    ['empty', ''],
  ] as const;
  for (const [what, ip] of notPublic)
    it(`refuses ${what}: ${ip}`, () => expect(isPublicAddress(ip)).toBe(false));

  const isPublic = [
    ['a public IPv4', '8.8.8.8'],
    ['just past 172.16/12', '172.32.0.1'],
    ['just before 172.16/12', '172.15.255.255'],
    ['just past 100.64/10', '100.128.0.1'],
    ['just before 10/8', '9.255.255.255'],
    ['a public IPv6', '2a00:1450:4003:80f::200a'],
    ['a public IPv6 resolver', '2001:4860:4860::8888'],
    ['IPv4-mapped public', '::ffff:142.250.184.10'],
    ['NAT64 of a public IPv4', '64:ff9b::808:808'],
  ] as const;
  for (const [what, ip] of isPublic)
    it(`accepts ${what}: ${ip}`, () => expect(isPublicAddress(ip)).toBe(true));
});

/** A resolver that answers these addresses for every name. */
const resolvesTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

const lookup = (fn: ReturnType<typeof checkedLookup>, host: string, all: boolean) =>
  new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
    fn(host, { all }, (err, address) => resolve({ err, address })),
  );

describe('checkedLookup', () => {
  it('answers the resolved public addresses, all or the first', async () => {
    const fn = checkedLookup({ resolve: resolvesTo('142.250.184.10', '2a00:1450:4003:80f::200a') });
    expect(await lookup(fn, 'fcm.googleapis.com', false)).toEqual({ err: null, address: '142.250.184.10' });
    const all = await lookup(fn, 'fcm.googleapis.com', true);
    expect(all.address).toEqual([
      { address: '142.250.184.10', family: 4 },
      { address: '2a00:1450:4003:80f::200a', family: 6 },
    ]);
  });

  it('refuses a name with any address that is not public (one private answer among public ones too)', async () => {
    for (const answer of [['127.0.0.1'], ['142.250.184.10', '10.0.0.5'], ['::ffff:169.254.169.254']]) {
      const { err } = await lookup(
        checkedLookup({ resolve: resolvesTo(...answer) }),
        'fcm.googleapis.com',
        true,
      );
      expect(err, answer.join()).toBeInstanceOf(OutboundRefusedError);
    }
  });

  it('a trusted host is answered as it resolves', async () => {
    const fn = checkedLookup({ resolve: resolvesTo('127.0.0.1'), trusted: (h) => h === 'push.lan' });
    expect(await lookup(fn, 'push.lan', false)).toEqual({ err: null, address: '127.0.0.1' });
    expect((await lookup(fn, 'PUSH.lan', false)).err).toBeNull();
    expect((await lookup(fn, 'other.lan', false)).err).toBeInstanceOf(OutboundRefusedError);
  });
});

describe('outboundAgent: nothing connects to an address that is not public', () => {
  const certDir = path.join(import.meta.dirname, '../fixtures');
  let connections = 0;
  let port = 0;
  const server = https.createServer(
    {
      cert: fs.readFileSync(path.join(certDir, 'push-service.crt')),
      key: fs.readFileSync(path.join(certDir, 'push-service.key')),
    },
    (_req, res) => res.writeHead(201).end(),
  );
  server.on('connection', () => connections++);
  beforeAll(
    () =>
      new Promise<void>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          port = (server.address() as AddressInfo).port;
          resolve();
        }),
      ),
  );
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A GET through the agent; the certificate is the fixture's own, so it is not judged here. */
  const get = (url: string, agent: https.Agent) =>
    new Promise<number>((resolve, reject) => {
      https
        .get(url, { agent, rejectUnauthorized: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });

  it('a listed name that resolves to 127.0.0.1 is refused before any connection', async () => {
    connections = 0;
    const agent = outboundAgent({ resolve: resolvesTo('127.0.0.1') });
    await expect(get(`https://fcm.googleapis.com:${port}/x`, agent)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(connections).toBe(0);
    agent.destroy();
  });

  it('an address written in the URL is checked too (no lookup sees it)', async () => {
    connections = 0;
    const agent = outboundAgent();
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]'])
      await expect(get(`https://${host}:${port}/x`, agent)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(connections).toBe(0);
    agent.destroy();
  });

  it('the same connections go through for a trusted host: the counter can count', async () => {
    connections = 0;
    const agent = outboundAgent({
      resolve: resolvesTo('127.0.0.1'),
      trusted: (h) => h === 'fcm.googleapis.com' || h === '127.0.0.1',
    });
    expect(await get(`https://fcm.googleapis.com:${port}/x`, agent)).toBe(201);
    expect(await get(`https://127.0.0.1:${port}/x`, agent)).toBe(201);
    expect(connections).toBeGreaterThanOrEqual(1);
    agent.destroy();
  });
});

describe('isWebhookAddress (CONTRACT §21 "Targets")', () => {
  const refused = [
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.200.0.9'],
    ['IPv6 loopback', '::1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local, its end of fe80::/10', 'febf::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['unspecified', '0.0.0.0'],
    ['this network 0/8', '0.1.2.3'],
    ['IPv6 unspecified', '::'],
    ['multicast', '239.255.255.250'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
    ['IPv4-mapped link-local', '::ffff:169.254.169.254'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['bracketed IPv6 loopback', '[::1]'],
    ['not an address', 'localhost'],
  ] as const;
  it.each(refused)('%s (%s) is refused', (_what, ip) => {
    expect(isWebhookAddress(ip, false)).toBe(false);
  });

  const allowed = [
    ['RFC 1918 (a WMS on the LAN)', '192.168.1.20'],
    ['RFC 1918 10/8', '10.0.0.5'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['IPv6 unique local', 'fd00::5'],
    ['public IPv4', '8.8.8.8'],
    ['public IPv6', '2001:4860:4860::8888'],
    ['IPv4-mapped LAN', '::ffff:192.168.1.20'],
    ['reserved 240/4 (not multicast)', '240.0.0.1'],
  ] as const;
  it.each(allowed)('%s (%s) is allowed', (_what, ip) => {
    expect(isWebhookAddress(ip, false)).toBe(true);
  });

  it('WEBHOOK_ALLOW_LOOPBACK allows loopback, never link-local or unspecified', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(isWebhookAddress(ip, true), ip).toBe(true);
    for (const ip of ['169.254.0.1', 'fe80::1', '0.0.0.0', '::'])
      expect(isWebhookAddress(ip, true), ip).toBe(false);
  });
});
