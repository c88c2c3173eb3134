// `npm run cluster` (CONTRACT §18): scripts/cluster.ts as an operator runs it — PostgreSQL, two nodes and
// the reverse proxy in front — then the pieces on their own: the persistent PostgreSQL of embedded.ts
// (`dataDir`), and the proxy (scripts/cluster/proxy.ts: round robin, a refusing node skipped, 503 with no
// node ready, X-Forwarded-For its own). Most runs get a database of the test PostgreSQL (DATABASE_URL); one
// lets the script start its own in a data folder, twice, the second run finding the first one's data.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { io as ioClient } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_HEADER, PROXY_TEXT, startProxy, type RunningProxy } from '../../scripts/cluster/proxy';
import { PROXY_SECRET_HEADER } from '../../server/http/forwarded';
import { alive, freePort, startEmbeddedPostgres } from '../../scripts/postgres/embedded';
import { freshPostgresDatabase } from '../helpers/postgres';
import {
  ADMIN,
  ROOT,
  adminToken,
  api,
  cleanup,
  createTask,
  sleep,
  taskBody,
  tempDir,
  type Exit,
} from './harness';

const JWT_SECRET = 'secreto-del-cluster-de-pruebas-con-mas-de-32-caracteres';

interface Cluster {
  child: ChildProcess;
  /** The proxy's URL, from the ready line. */
  url: string;
  /** How many nodes the ready line announced. */
  nodes: number;
  /** The pids the script printed for a node, oldest first (`[nodo 1] pid 1234`). */
  pids(node: string): number[];
  output(): string;
  exited: Promise<Exit>;
}

const clusters = new Set<Cluster>();
const databases: { drop(): Promise<void> }[] = [];

/** Kills what a failed test left: the script (run.ts then stops its nodes), and any node still there. */
afterEach(async () => {
  for (const c of clusters) {
    c.child.kill('SIGKILL');
    const pids = ['1', '2'].flatMap((n) => c.pids(n));
    const until = Date.now() + 25_000;
    while (pids.some(alive) && Date.now() < until) await sleep(100);
    for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  }
  clusters.clear();
  await Promise.all(databases.splice(0).map((d) => d.drop()));
  await cleanup();
});

async function startCluster(env: Record<string, string>): Promise<Cluster> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      SERVE_CLIENT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const pids = (node: string) =>
    [...out.matchAll(new RegExp(`^\\[nodo ${node}\\] pid (\\d+)$`, 'gm'))].map((m) => Number(m[1]));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /^Torre de Control en (http:\/\/\S+) \((\d+) nodos?\)$/m.exec(out);
    if (m) {
      const cluster = { child, url: m[1], nodes: Number(m[2]), pids, output: () => out, exited };
      clusters.add(cluster);
      return cluster;
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the cluster did not start (exit ${child.exitCode}):\n${out}`);
    }
    await sleep(50);
  }
}

/** SIGTERM to the script: it must exit 0, its nodes gone with it. */
async function stopCluster(c: Cluster): Promise<void> {
  const pids = ['1', '2'].flatMap((n) => c.pids(n));
  c.child.kill('SIGTERM');
  expect(await c.exited).toEqual({ code: 0, signal: null });
  clusters.delete(c);
  expect(pids.filter(alive)).toEqual([]);
}

/** A GET through the proxy: its status and the node that answered it. */
async function get(url: string, route: string): Promise<{ status: number; node: string | null }> {
  const res = await fetch(`${url}/api${route}`);
  await res.arrayBuffer();
  return { status: res.status, node: res.headers.get(NODE_HEADER) };
}

/** The watchdog shells of embedded.ts still watching the postmaster `pid`. */
function watchdogsOf(pid: number): string[] {
  return fs.readdirSync('/proc').filter((entry) => {
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      return argv.includes('torre-pg-watchdog') && argv.includes(String(pid));
    } catch {
      return false;
    }
  });
}

/**
 * The state pg_control records (its fourth field, after the system identifier and two versions): what the
 * last postmaster left. `DB_SHUTDOWNED` after a clean (smart or fast) shutdown only; an immediate shutdown or
 * a kill leaves `DB_IN_PRODUCTION`, and the next start recovers from the WAL.
 */
const clusterState = (dir: string) => fs.readFileSync(path.join(dir, 'global/pg_control')).readUInt32LE(16);
const DB_SHUTDOWNED = 1;

describe('npm run cluster', () => {
  it('serves through the proxy from both nodes, HTTP and Socket.IO, and stops everything on SIGTERM', async () => {
    const db = await freshPostgresDatabase();
    databases.push(db);
    const c = await startCluster({ NODES: '2', DATABASE_URL: db.url });
    expect(c.nodes).toBe(2);
    const token = await adminToken(c.url); // POST /api/auth/login through the proxy

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(c.url, '/health/live'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.node))).toEqual(new Set(['1', '2']));

    // A board's socket through the proxy (WebSocket only) sees the tasks created on either node.
    const socket = ioClient(c.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    const seen: string[] = [];
    socket.on('task:created', ({ task }: { task: { trailer_id: string } }) => seen.push(task.trailer_id));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const created = [];
    for (const trailer of ['CLU-1', 'CLU-2']) {
      const res = await fetch(`${c.url}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(taskBody(trailer)),
      });
      await res.arrayBuffer();
      created.push({ status: res.status, node: res.headers.get(NODE_HEADER) });
    }
    expect(created.map((r) => r.status)).toEqual([201, 201]);
    expect(new Set(created.map((r) => r.node))).toEqual(new Set(['1', '2']));
    for (let i = 0; i < 100 && seen.length < 2; i++) await sleep(50);
    expect(seen.sort()).toEqual(['CLU-1', 'CLU-2']);
    socket.close();

    await stopCluster(c);
    expect(c.output()).toMatch(/^\[nodo 1\] cerrado \(con código 0\)$/m);
    expect(c.output()).toMatch(/^\[nodo 2\] cerrado \(con código 0\)$/m);
  });

  it('a node killed is covered by the other at once, and is back within 15 s', async () => {
    const db = await freshPostgresDatabase();
    databases.push(db);
    const c = await startCluster({ NODES: '2', DATABASE_URL: db.url });
    const [killed] = c.pids('1');
    process.kill(killed, 'SIGKILL');
    while (alive(killed)) await sleep(10);

    // The proxy has not probed yet: the request it sends to node 1 is refused and goes to node 2.
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await get(c.url, '/health/live'));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ status: 200, node: '2' })));

    const until = Date.now() + 15_000;
    let back = false;
    while (!back && Date.now() < until) {
      back = (await get(c.url, '/health/ready')).node === '1';
      if (!back) await sleep(200);
    }
    expect(back).toBe(true);
    expect(c.pids('1')).toHaveLength(2);
    expect(alive(c.pids('1')[1])).toBe(true);
    expect(c.output()).toMatch(/^\[nodo 1\] terminó por la señal SIGKILL; se reinicia en 1 s$/m);
    await stopCluster(c);
  });

  it('without DATABASE_URL starts PostgreSQL in the data folder, and finds it again on the next run', async () => {
    const dataDir = tempDir('cluster');
    fs.chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as `postgres`, which must reach it
    const env = { NODES: '1', DATA_DIR: dataDir };
    const pgDir = path.join(dataDir, 'postgres');

    const first = await startCluster(env);
    expect(first.nodes).toBe(1);
    expect(first.output()).toContain(`[clúster] PostgreSQL creado en ${pgDir}`);
    const postmaster = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(alive(postmaster)).toBe(true);
    expect((await createTask(first.url, await adminToken(first.url), 'CLU-KEPT')).status).toBe(201);
    await stopCluster(first);
    expect(alive(postmaster)).toBe(false);
    expect(clusterState(pgDir)).toBe(DB_SHUTDOWNED);
    expect(fs.existsSync(path.join(pgDir, 'PG_VERSION'))).toBe(true);

    const second = await startCluster(env);
    expect(second.output()).toContain(`[clúster] PostgreSQL en ${pgDir}`);
    expect(second.output()).not.toContain('PostgreSQL creado');
    const board = await api<{ trailer_id: string }[]>(second.url, '/tasks', {
      token: await adminToken(second.url),
    });
    expect(board.status).toBe(200);
    expect(board.body.map((t) => t.trailer_id)).toContain('CLU-KEPT');
    await stopCluster(second);
    expect(fs.existsSync(path.join(pgDir, 'PG_VERSION'))).toBe(true);
  }, 120_000);
});

describe("the cluster's PostgreSQL in the data folder (embedded.ts with dataDir)", () => {
  it('is shut down cleanly when its process is killed, and its data and password are kept', async () => {
    const dataDir = tempDir('cluster-pg');
    fs.chmodSync(dataDir, 0o755);
    const dir = path.join(dataDir, 'postgres');
    const embedded = path.join(ROOT, 'scripts/postgres/embedded.ts');
    const code = `
      import { startEmbeddedPostgres } from ${JSON.stringify(embedded)};
      const c = await startEmbeddedPostgres({ durability: 'durable', dataDir: ${JSON.stringify(dir)} });
      await c.admin.query('CREATE DATABASE guardada');
      console.log(JSON.stringify({ pid: c.pid, initialised: c.initialised }));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = await new Promise<{ pid: number; initialised: boolean }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { pid: number; initialised: boolean });
      });
      child.once('exit', (exitCode) => reject(new Error(`exited (${exitCode}): ${out}`)));
    });
    expect(started.initialised).toBe(true);
    expect(watchdogsOf(started.pid)).toHaveLength(1);
    child.kill('SIGKILL');
    const until = Date.now() + 15_000;
    while ((alive(started.pid) || watchdogsOf(started.pid).length > 0) && Date.now() < until) await sleep(50);
    expect(alive(started.pid)).toBe(false);
    expect(watchdogsOf(started.pid)).toEqual([]);
    // The watchdog is done: it gave a fast shutdown (not an immediate one, nor a kill) and kept the data.
    expect(clusterState(dir)).toBe(DB_SHUTDOWNED);
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);

    const again = await startEmbeddedPostgres({ durability: 'durable', dataDir: dir });
    try {
      expect(again.initialised).toBe(false);
      const found = await again.admin.query("SELECT 1 FROM pg_database WHERE datname = 'guardada'");
      expect(found.rowCount).toBe(1);
    } finally {
      await again.stop();
    }
    expect(alive(again.pid)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
  }, 60_000);
});

describe('the cluster proxy', () => {
  const servers = new Set<http.Server>();
  let proxy: RunningProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    for (const s of servers) s.closeAllConnections();
    await Promise.all([...servers].map((s) => new Promise((r) => s.close(r))));
    servers.clear();
  });

  /** How a stand-in node answers its probes (a test may change it), and how many it got. */
  interface Health {
    answer: 'ready' | 'silent' | 'not-ready';
    probes: number;
  }
  /** A stand-in node: ready, echoing what it received, accepting any upgrade (saying its name). */
  async function fakeNode(
    name: string,
    health: Health = { answer: 'ready', probes: 0 },
  ): Promise<{ name: string; url: string; server: http.Server }> {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.url === '/api/health/ready') {
          health.probes += 1;
          if (health.answer === 'silent') return; // too busy to answer before the probe gives up
          res.statusCode = health.answer === 'ready' ? 200 : 503;
          return void res.end('{}');
        }
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            name,
            body,
            xff: req.headers['x-forwarded-for'],
            proto: req.headers['x-forwarded-proto'],
            secret: req.headers[PROXY_SECRET_HEADER],
          }),
        );
      });
    });
    server.on('upgrade', (_req, socket: net.Socket) =>
      socket.end(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Name: ${name}\r\n\r\n`,
      ),
    );
    servers.add(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { name, url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, server };
  }

  /** Starts the proxy over `targets` and resolves once `ready` of them passed a probe. */
  async function proxyOver(targets: { name: string; url: string }[], ready: number, secret?: string) {
    const status: [string, boolean][] = [];
    let readyNow = 0;
    let resolveReady: () => void = () => {};
    const allReady = new Promise<void>((r) => (resolveReady = r));
    proxy = await startProxy({
      port: 0,
      host: '127.0.0.1',
      targets,
      secret,
      onStatus: (t, isReady) => {
        status.push([t.name, isReady]);
        readyNow += isReady ? 1 : -1;
        if (readyNow === ready) resolveReady();
      },
    });
    if (ready > 0) await allReady;
    return { proxy, status };
  }

  /** A WebSocket upgrade through the proxy: the status it got, and the name of the node that accepted it. */
  const upgrade = (url: string) =>
    new Promise<{ status?: number; name?: string; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/socket.io/?EIO=4&transport=websocket`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-version': '13',
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve({ status: res.statusCode, name: String(res.headers['x-name']), body: '' });
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.end();
    });

  const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/api/echo`, { method: 'POST', body, headers });
    return {
      status: res.status,
      node: res.headers.get(NODE_HEADER),
      body: (await res.json()) as Record<string, string>,
    };
  };

  it('spreads requests round robin and writes X-Forwarded-For itself (what a client claims is dropped)', async () => {
    const a = await fakeNode('a');
    const b = await fakeNode('b');
    const { proxy } = await proxyOver([a, b], 2);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await post(proxy.url, `cuerpo ${i}`, { 'x-forwarded-for': '6.6.6.6' }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.node)).toEqual(answers.map((r) => r.body.name));
    expect(new Set(answers.map((r) => r.node))).toEqual(new Set(['a', 'b']));
    expect(answers.map((r) => r.body.body)).toEqual(['cuerpo 0', 'cuerpo 1', 'cuerpo 2', 'cuerpo 3']);
    for (const r of answers) expect([r.body.xff, r.body.proto]).toEqual(['127.0.0.1', 'http']);
    // Without a secret configured, none is sent.
    for (const r of answers) expect(r.body.secret).toBeUndefined();
  });

  it("sends the nodes' secret with every request, never a client's claim of one (CONTRACT §23)", async () => {
    const a = await fakeNode('a');
    const { proxy } = await proxyOver([a], 1, 'el-secreto-del-proxy-de-este-cluster-0123');
    const claimed = await post(proxy.url, 'x', {
      'x-forwarded-for': '6.6.6.6',
      [PROXY_SECRET_HEADER]: 'lo-que-diga-el-cliente',
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({
      xff: '127.0.0.1',
      secret: 'el-secreto-del-proxy-de-este-cluster-0123',
    });
  });

  it('retries on another node a request whose node refuses the connection, body and all', async () => {
    const a = await fakeNode('a');
    const b = await fakeNode('b');
    const { proxy, status } = await proxyOver([a, b], 2);
    b.server.closeAllConnections();
    await new Promise((r) => b.server.close(r));
    servers.delete(b.server);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(proxy.url, `cuerpo ${i}`));
    expect(answers.map((r) => [r.status, r.node, r.body.body])).toEqual([
      [200, 'a', 'cuerpo 0'],
      [200, 'a', 'cuerpo 1'],
      [200, 'a', 'cuerpo 2'],
      [200, 'a', 'cuerpo 3'],
    ]);
    expect(status.at(-1)).toEqual(['b', false]);
  });

  it('hands a WebSocket upgrade its node refuses to another node', async () => {
    const a = await fakeNode('a');
    const b = await fakeNode('b');
    const { proxy, status } = await proxyOver([a, b], 2);
    await new Promise((r) => b.server.close(r));
    servers.delete(b.server);
    // In turn: a, then b (refused, so a again).
    expect(await upgrade(proxy.url)).toEqual({ status: 101, name: 'a', body: '' });
    expect(await upgrade(proxy.url)).toEqual({ status: 101, name: 'a', body: '' });
    expect(status.at(-1)).toEqual(['b', false]);
  });

  it('keeps a node that misses a probe or two, takes it out after three in a row, and at once when it says so', async () => {
    const health: Health = { answer: 'ready', probes: 0 };
    const a = await fakeNode('a', health);
    const { proxy, status } = await proxyOver([a], 1);
    const untilProbes = async (n: number) => {
      const deadline = Date.now() + 10_000;
      while (health.probes < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(health.probes).toBeGreaterThanOrEqual(n);
    };

    // Busy: two probes without an answer, and it still serves.
    health.answer = 'silent';
    health.probes = 0;
    await untilProbes(3); // the third has started: two have missed
    expect(status).toEqual([['a', true]]);
    expect((await post(proxy.url, 'ocupado')).status).toBe(200);
    // The third miss takes it out: 503 until a probe answers again.
    await untilProbes(4);
    expect(status.at(-1)).toEqual(['a', false]);
    const out = await fetch(`${proxy.url}/api/echo`);
    expect([out.status, out.headers.get('retry-after')]).toEqual([503, '1']);
    health.answer = 'ready';
    await untilProbes(6);
    expect(status.at(-1)).toEqual(['a', true]);

    // A node that says it is not ready (draining, say) is out after that one probe.
    health.answer = 'not-ready';
    health.probes = 0;
    await untilProbes(2);
    expect(status.at(-1)).toEqual(['a', false]);
    expect(status.filter(([, ready]) => !ready)).toHaveLength(2);
  });

  it('answers 503 in Spanish, HTTP and WebSocket, while no node is ready', async () => {
    const { proxy } = await proxyOver([{ name: '1', url: `http://127.0.0.1:${await freePort()}` }], 0);
    const res = await fetch(`${proxy.url}/api/health/live`);
    expect(res.status).toBe(503);
    expect(res.headers.get(NODE_HEADER)).toBeNull();
    expect(await res.json()).toEqual({ detail: PROXY_TEXT.noNode });

    // A socket's upgrade gets the same answer on its raw connection.
    const refusedUpgrade = await upgrade(proxy.url);
    expect(refusedUpgrade.status).toBe(503);
    expect(JSON.parse(refusedUpgrade.body)).toEqual({ detail: PROXY_TEXT.noNode });
  });
});
