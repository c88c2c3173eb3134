// A TCP proxy that can cut the network for real (CONTRACT §16 browser tests): the phone's page is served
// through it, so `cut()` takes the server away from everything the page's origin talks to — fetches,
// the Socket.IO WebSocket and the service worker's own requests (which `context.setOffline` does not
// stop). Bytes are piped both ways untouched, so HTTP keep-alive and WebSocket upgrades pass through.
// `cut()` destroys every open connection and stops listening (new connections are refused at once);
// `restore()` listens again on the same port. Loopback only: 127.0.0.1, and ::1 when the machine has it
// (Chromium may resolve `localhost` to either).
import net from 'node:net';

export interface CutProxy {
  /** The port the proxy listens on (the same after every restore). */
  readonly port: number;
  /** `http://localhost:<port>`: a secure context, so the service worker registers. */
  readonly url: string;
  /** Whether the proxy is listening now. */
  readonly up: boolean;
  /** Drops every open connection and stops listening. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Cut for good (the test's end). */
  close(): Promise<void>;
}

const HOSTS = ['127.0.0.1', '::1'] as const;

/** Listens on `port` (0: any free one) at `host`; resolves with the port, rejects on a listen error. */
function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => reject(err);
    server.once('error', fail);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', fail);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

const closeServer = (server: net.Server) =>
  new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

/** Starts a proxy from a free loopback port to `targetHost:targetPort`. */
export async function startCutProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<CutProxy> {
  const open = new Set<net.Socket>();
  let servers: net.Server[] = [];
  let port = 0;
  let up = false;

  const onConnection = (client: net.Socket) => {
    const upstream = net.connect({ port: targetPort, host: targetHost });
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  async function start(): Promise<void> {
    const started: net.Server[] = [];
    for (const host of HOSTS) {
      const server = net.createServer(onConnection);
      try {
        port = await listen(server, port, host);
        started.push(server);
      } catch (err) {
        // No IPv6 loopback here: 127.0.0.1 alone serves `localhost`.
        if (
          host === '::1' &&
          ['EADDRNOTAVAIL', 'EAFNOSUPPORT'].includes((err as NodeJS.ErrnoException).code!)
        )
          continue;
        await Promise.all(started.map(closeServer));
        throw err;
      }
    }
    servers = started;
    up = true;
  }

  async function cut(): Promise<void> {
    up = false;
    const closing = servers.map(closeServer);
    servers = [];
    for (const socket of open) socket.destroy();
    open.clear();
    await Promise.all(closing);
  }

  await start();
  return {
    get port() {
      return port;
    },
    get url() {
      return `http://localhost:${port}`;
    },
    get up() {
      return up;
    },
    cut,
    async restore() {
      if (!up) await start();
    },
    close: cut,
  };
}
