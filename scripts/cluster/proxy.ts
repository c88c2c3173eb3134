// The reverse proxy in front of the nodes (CONTRACT §18): `npm run cluster`'s, and the bench's. HTTP requests
// and WebSocket upgrades go round robin to the ready nodes. A probe of GET /api/health/ready runs once a
// second per node: a 200 makes it ready; a node that answers anything else, or refuses the connection, is
// taken out at once; one that does not answer in time only after three such probes in a row (a node
// taking over another's hundreds of screens may be too busy to answer one — taking it out then would
// leave none). A request whose node refuses the connection goes, once, to another ready node: nothing
// reached the refusing one (see replayable()). With no node ready, 503 with Retry-After.
//
// No sticky sessions: Socket.IO runs WebSocket only (the server and the client both say
// `transports: ['websocket']`), so a socket's whole life is one upgraded connection to one node; long
// polling, whose handshake spans requests that must reach the same node, is never used.
import http from 'node:http';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import { PROXY_SECRET_HEADER } from '../../server/http/forwarded';

/** The response header naming the node that answered (tests and the bench tell the nodes apart by it). */
export const NODE_HEADER = 'x-torre-node';
const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 900;
/** Probes in a row without an answer that take a node out (as HAProxy's `fall 3`). */
const PROBE_MISSES_TO_REMOVE = 3;
/** How long close() lets the requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 5_000;

export const PROXY_TEXT = {
  noNode: 'No hay ningún nodo disponible; inténtalo de nuevo en unos segundos',
  nodeFailed: 'El nodo no pudo atender la petición; inténtalo de nuevo',
};

export interface ProxyTarget {
  /** Shown in the NODE_HEADER of its answers and in the logs (`1`, `2`…). */
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
}

export interface ProxyOptions {
  port: number;
  host: string;
  targets: ProxyTarget[];
  /**
   * The nodes' PROXY_SECRET (server/http/forwarded.ts): sent with every request so that the nodes believe the
   * X-Forwarded-For this proxy writes, and nobody else's.
   */
  secret?: string;
  /** Told whenever a node becomes ready or stops being so (by a probe or a refused connection). */
  onStatus?: (target: ProxyTarget, ready: boolean) => void;
}

export interface RunningProxy {
  /** http://<host>:<port> (`localhost` for a wildcard host). */
  url: string;
  port: number;
  /** Replaces the nodes; those kept keep their state, new ones wait for their first probe. */
  setTargets(targets: ProxyTarget[]): void;
  /** Stops listening, lets the requests in flight finish (up to 5 s), closes the WebSockets. */
  close(): Promise<void>;
}

interface Node {
  target: ProxyTarget;
  origin: URL;
  /** Keep-alive connections to this node, for the requests and the probes. */
  agent: http.Agent;
  ready: boolean;
  probing: boolean;
  /** Probes in a row that got no answer in time. */
  missedProbes: number;
}

/** Hands http.request a connection already made: an upgrade is sent only once its node accepted it. */
class ConnectedAgent extends http.Agent {
  constructor(private readonly socket: net.Socket) {
    super({ keepAlive: false });
  }
  override createConnection(): net.Socket {
    return this.socket;
  }
}

interface Attempt {
  /** What is sent to the node as the request's body. */
  body: PassThrough;
  /** The body waits for the connection (piped by the proxyReq listener). */
  held: boolean;
  proxyReq?: http.ClientRequest;
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;
const refused = (err: unknown) => errorCode(err) === 'ECONNREFUSED';
const hasBody = (req: http.IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether an attempt may be made again elsewhere: its connection was refused (nothing reached the node), or
 * it went out on a kept-alive connection that was reset before any answer — the node had closed it, dying
 * say, before this proxy had noticed (Node's own advice for `reusedSocket`) — and it is a request without
 * body whose repetition is harmless.
 */
const replayable = (err: unknown, req: http.IncomingMessage, attempt: Attempt) =>
  refused(err) ||
  (errorCode(err) === 'ECONNRESET' &&
    attempt.proxyReq?.reusedSocket === true &&
    IDEMPOTENT.has(req.method ?? '') &&
    !hasBody(req));

/**
 * This proxy is the edge: what a client claims in X-Forwarded-* (or as the proxy's secret) is dropped; xfwd
 * writes the proxy's own, and the secret proves to the nodes that it did.
 */
function screenClaims(req: http.IncomingMessage, secret: string | undefined): void {
  for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
  delete req.headers[PROXY_SECRET_HEADER];
  if (secret !== undefined) req.headers[PROXY_SECRET_HEADER] = secret;
}

function answer(res: http.ServerResponse, status: number, detail: string): void {
  if (res.headersSent || res.destroyed) return void res.destroy();
  res.removeHeader(NODE_HEADER);
  const body = JSON.stringify({ detail });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(status === 503 ? { 'retry-after': '1' } : {}),
  });
  res.end(body);
}

/** An upgrade that cannot be proxied: a plain HTTP answer on the raw socket, then close it. */
function refuseUpgrade(socket: net.Socket, status: 502 | 503, detail: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const proxy = createProxyServer({ xfwd: true });
  // Errors without a callback of their own (a client's socket failing mid-upgrade) end that connection.
  proxy.on('error', (_err, _req, res) => {
    if (res instanceof net.Socket) res.destroy();
    else answer(res, 502, PROXY_TEXT.nodeFailed);
  });

  let nodes: Node[] = [];
  let turn = 0;
  let closing = false;

  const setReady = (node: Node, ready: boolean) => {
    if (node.ready === ready || !nodes.includes(node)) return;
    node.ready = ready;
    opts.onStatus?.(node.target, ready);
  };

  /** The next ready node in turn, other than `not`. */
  const pick = (not?: Node): Node | undefined => {
    const ready = nodes.filter((n) => n.ready && n !== not);
    return ready.length === 0 ? undefined : ready[turn++ % ready.length];
  };

  const probe = (node: Node) => {
    if (node.probing || closing) return;
    node.probing = true;
    /** `answered`: the node said whether it is ready, or refused the connection — no doubt either way. */
    const done = (ready: boolean, answered: boolean) => {
      node.probing = false;
      if (closing) return;
      node.missedProbes = answered ? 0 : node.missedProbes + 1;
      if (answered || node.missedProbes >= PROBE_MISSES_TO_REMOVE) setReady(node, ready);
    };
    const req = http.get(
      new URL('/api/health/ready', node.origin),
      { agent: node.agent, timeout: PROBE_TIMEOUT_MS },
      (res) => {
        res.resume();
        done(res.statusCode === 200, true);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', (err) => done(false, refused(err)));
  };

  const setTargets = (targets: ProxyTarget[]) => {
    const before = nodes;
    nodes = targets.map(
      (target) =>
        before.find((n) => n.target.url === target.url && n.target.name === target.name) ?? {
          target,
          origin: new URL(target.url),
          agent: new http.Agent({ keepAlive: true }),
          ready: false,
          probing: false,
          missedProbes: 0,
        },
    );
    for (const gone of before) if (!nodes.includes(gone)) gone.agent.destroy();
    for (const node of nodes) if (!before.includes(node)) probe(node);
  };

  // Each attempt's request to its node, and its body held back until the node accepted the connection.
  const attempts = new WeakMap<http.IncomingMessage, Attempt>();
  proxy.on('proxyReq', (proxyReq, req, _res, _options, socket) => {
    const attempt = attempts.get(req);
    if (!attempt) return;
    attempt.proxyReq = proxyReq;
    if (!attempt.held) return;
    const open = () => req.pipe(attempt.body);
    if (socket.connecting) socket.once('connect', open);
    else open();
  });

  /**
   * One attempt at an HTTP request; a failure where nothing reached a live node is tried once more on
   * another: a refused connection, or (see replayable) a kept-alive one the node had closed. A body is read
   * from the client only once the node has accepted the connection, so after a refusal it is still whole.
   * (With `Expect`, http-proxy-3 does not say when it connects: such a body is streamed at once, and its
   * request not retried.)
   */
  const web = (req: http.IncomingMessage, res: http.ServerResponse, failed?: Node) => {
    const node = pick(failed);
    if (!node) return answer(res, 503, PROXY_TEXT.noNode);
    const body = new PassThrough();
    const withBody = hasBody(req);
    const held = withBody && !failed && !req.headers.expect;
    const attempt: Attempt = { body, held };
    attempts.set(req, attempt);
    if (!withBody) body.end();
    else if (!held) req.pipe(body);
    res.setHeader(NODE_HEADER, node.target.name);
    proxy.web(req, res, { target: node.origin, agent: node.agent, buffer: body }, (err) => {
      if (attempts.get(req) !== attempt) return; // a former attempt's late error
      if (refused(err)) setReady(node, false);
      const again = !failed && !res.headersSent && (held || !withBody) && replayable(err, req, attempt);
      if (again) web(req, res, node);
      else answer(res, 502, PROXY_TEXT.nodeFailed);
    });
  };

  /** Connects to a ready node (a second one if the first refuses), then hands the upgrade over. */
  const upgrade = async (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    let failed: Node | undefined;
    for (;;) {
      const node = pick(failed);
      if (!node) return refuseUpgrade(socket, 503, PROXY_TEXT.noNode);
      try {
        const conn = await new Promise<net.Socket>((resolve, reject) => {
          const c = net.connect(Number(node.origin.port), node.origin.hostname);
          c.once('connect', () => resolve(c));
          c.once('error', reject);
        });
        if (socket.destroyed || closing) {
          conn.destroy();
          return void socket.destroy();
        }
        proxy.ws(req, socket, head, { target: node.origin, agent: new ConnectedAgent(conn) }, () => {
          // After the connection was made: http-proxy-3 closes the client's socket itself.
          conn.destroy();
        });
        return;
      } catch (err) {
        if (!refused(err) || failed) return refuseUpgrade(socket, 502, PROXY_TEXT.nodeFailed);
        setReady(node, false);
        failed = node;
      }
    }
  };

  const upgraded = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    screenClaims(req, opts.secret);
    web(req, res);
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    if (closing) return void socket.destroy();
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    screenClaims(req, opts.secret);
    void upgrade(req, socket, head);
  });

  setTargets(opts.targets);
  const prober = setInterval(() => nodes.forEach(probe), PROBE_EVERY_MS);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => resolve());
    });
  } catch (err) {
    clearInterval(prober);
    for (const node of nodes) node.agent.destroy();
    throw err;
  }
  const { port } = server.address() as net.AddressInfo;
  const host = ['0.0.0.0', '::', ''].includes(opts.host) ? 'localhost' : opts.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    setTargets,
    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(prober);
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of upgraded) socket.destroy();
        // A keep-alive connection is closed as soon as its answer is out; any still busy after the grace, cut.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await done;
        clearInterval(sweep);
        clearTimeout(grace);
        for (const node of nodes) node.agent.destroy();
      })();
      return closed;
    },
  };
}
