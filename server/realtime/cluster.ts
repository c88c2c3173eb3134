// Many nodes on one PostgreSQL (CONTRACT §18, issue 17). Socket.IO's own PostgreSQL adapter carries every
// emit, room change and disconnect to the sockets of every node: LISTEN on a connection of its own, NOTIFY
// for each message, and payloads over NOTIFY's 8,000-byte limit through its attachments table (created by
// migrations-pg/0005). Server-side messages carry what would otherwise stay in one process: a move of the
// test clock and the count of revocations. With SQLite there is one process: Socket.IO's in-memory adapter,
// and these messages stay local.
import pg from 'pg';
import {
  Adapter,
  MessageType,
  type BroadcastOptions,
  type ClusterMessage,
  type ClusterResponse,
} from 'socket.io-adapter';
import { createAdapter } from '@socket.io/postgres-adapter';
import { hasBinary, type PubSubClient } from '@socket.io/postgres-adapter/dist/util';
import { logger } from '../logger';
import type { IoServer } from './emit';

/** How often a node tells the others it is alive, and after how long without a word it counts as gone. */
export const ADAPTER_HEARTBEAT_MS = 5_000;
export const ADAPTER_HEARTBEAT_TIMEOUT_MS = 10_000;

/** The adapter's LISTEN connection, as its PubSubClient keeps it (pinned: tests/socket/cluster-adapter). */
interface AdapterInternals {
  client?: { client?: unknown };
}

/** The adapter's channels are this prefix, `#`, the namespace. */
const CHANNEL_PREFIX = 'socket.io';
/** The largest payload sent by NOTIFY (PostgreSQL's limit is 8,000 bytes); larger: the attachments table. */
const NOTIFY_PAYLOAD_MAX = 7_900;

let listening: (() => boolean) | undefined;

/**
 * Puts the PostgreSQL adapter under `io`; returns what closes its pool. The adapter has a pool of its own
 * (LISTEN holds a connection for good; the services' pool stays whole for transactions).
 */
export function useClusterAdapter(io: IoServer, databaseUrl: string): () => Promise<void> {
  // Two connections: LISTEN holds one; NOTIFYs go one after another on the other, so the adapter's
  // messages (and this node's own deliveries, which wait for their NOTIFY) keep the order of the emits.
  // A PostgreSQL that does not answer fails a NOTIFY in 2 s (logged) rather than holding it forever.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: 2_000 });
  // A connection PostgreSQL drops (a restart, a failover) reports an error on its client, checked out or
  // not: logged here, never an uncaught error. The adapter reconnects its LISTEN by itself.
  const onClientError = (err: Error) => logger.warn({ err }, 'adaptador de Socket.IO: conexión perdida');
  pool.on('error', onClientError);
  // The adapter checks its LISTEN connection out for good and, once PostgreSQL has dropped it, takes
  // another without giving the dead one back: both slots would stay held and every NOTIFY of this node
  // would wait for a connection, after any restart or failover. A checked-out connection that ends is
  // given back here with its error, so the pool forgets it.
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', onClientError);
    client.on('end', () => {
      if (checkedOut.has(client)) client.release(new Error('conexión del adaptador cerrada'));
    });
  });
  io.adapter(
    createAdapter(pool, {
      heartbeatInterval: ADAPTER_HEARTBEAT_MS,
      heartbeatTimeout: ADAPTER_HEARTBEAT_TIMEOUT_MS,
      channelPrefix: CHANNEL_PREFIX,
      payloadThreshold: NOTIFY_PAYLOAD_MAX,
      errorHandler: (err) => logger.warn({ err }, 'adaptador de Socket.IO: error'),
    }),
  );
  deliverHereAtOnce(io.of('/').adapter as unknown as ClusterBroadcaster);
  const adapter = io.of('/').adapter as unknown as AdapterInternals;
  notifyTogether((adapter as unknown as { client: PubSubClient }).client, pool);
  listening = () => adapter.client?.client !== undefined;
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      listening = undefined;
      await pool.end().catch((err: unknown) => logger.warn({ err }, 'al cerrar el pool del adaptador'));
    })());
}

/** The part of the adapter a broadcast goes through (socket.io-adapter's ClusterAdapter, pinned). */
interface ClusterBroadcaster extends Adapter {
  publish(message: { type: MessageType; data: unknown }): void;
}

/**
 * The adapter's broadcast reaches even this node's sockets only once its NOTIFY has been sent, while a
 * request's answer leaves at once: a client would hear of its own change after the answer, and with
 * PostgreSQL gone not at all. Here this node's sockets get it at once, in the order of the emits, and the
 * other nodes through the adapter's own message, unchanged (NOTIFYs keep their order on one connection).
 */
function deliverHereAtOnce(adapter: ClusterBroadcaster): void {
  const encode = (opts: BroadcastOptions) => ({
    rooms: [...opts.rooms],
    except: [...(opts.except ?? [])],
    flags: opts.flags,
  });
  const elsewhere = (opts: BroadcastOptions, type: MessageType, data: Record<string, unknown>) => {
    if (!opts.flags?.local) adapter.publish({ type, data: { ...data, opts: encode(opts) } });
  };
  adapter.broadcast = (packet: unknown, opts: BroadcastOptions) => {
    elsewhere(opts, MessageType.BROADCAST, { packet });
    Adapter.prototype.broadcast.call(adapter, packet, opts);
  };
  // Room changes likewise (socketsJoin / socketsLeave): here at once, so a driver whose task types just
  // changed is in the new rooms by the time the change is answered.
  adapter.addSockets = (opts: BroadcastOptions, rooms: string[]) => {
    elsewhere(opts, MessageType.SOCKETS_JOIN, { rooms });
    Adapter.prototype.addSockets.call(adapter, opts, rooms);
  };
  adapter.delSockets = (opts: BroadcastOptions, rooms: string[]) => {
    elsewhere(opts, MessageType.SOCKETS_LEAVE, { rooms });
    Adapter.prototype.delSockets.call(adapter, opts, rooms);
  };
}

type Published = ClusterMessage | ClusterResponse;

/**
 * The adapter sends each message as its own `SELECT pg_notify(…)`, one after another: a change that pushes a
 * task, its trailer and the yard paid a round trip each, and the NOTIFYs were a quarter of the statements
 * of the write bench. Here the messages published in one turn of the event loop (a change set's pushes),
 * or while the previous batch was being sent, go in one statement, in their order: unnest yields the
 * array in order and NOTIFYs of one transaction are delivered in the order sent. (PostgreSQL delivers two
 * identical payloads of one transaction once: an identical broadcast twice in a row, which says nothing
 * more the second time.) A message the adapter sends another way (binary, or too large for NOTIFY: its
 * attachments table) goes as the adapter sends it, in its place.
 */
function notifyTogether(publisher: PubSubClient, pool: pg.Pool): void {
  const sendAlone = publisher.publish.bind(publisher);
  let queue: Published[] = [];
  let sending: Promise<void> | undefined;
  const sendAll = async () => {
    while (queue.length) {
      const batch = queue;
      queue = [];
      let channel: string | undefined;
      let payloads: string[] = [];
      const flush = async () => {
        if (payloads.length)
          await pool
            .query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads])
            .catch((err: unknown) => logger.warn({ err }, 'adaptador de Socket.IO: error'));
        payloads = [];
      };
      for (const message of batch) {
        const payload = JSON.stringify(message);
        const to = `${CHANNEL_PREFIX}#${message.nsp}`;
        if (hasBinary(message) || Buffer.byteLength(payload) > NOTIFY_PAYLOAD_MAX) {
          await flush();
          await sendAlone(message);
          continue;
        }
        if (to !== channel) await flush();
        channel = to;
        payloads.push(payload);
      }
      await flush();
    }
    sending = undefined;
  };
  publisher.publish = (message) => {
    queue.push(message);
    // After the current turn: the rest of a change set's pushes join this batch.
    return (sending ??= Promise.resolve().then(sendAll));
  };
}

/**
 * Whether events reach the other nodes: true with one process (nothing to reach), else while the
 * adapter's LISTEN connection is up (without it, broadcasts stay local: GET /health/ready says 503).
 */
export function adapterUp(): boolean {
  return listening?.() ?? true;
}

/** True when other nodes may exist: emits and room changes must go through the adapter. */
export function clustered(): boolean {
  return listening !== undefined;
}
