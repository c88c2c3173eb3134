// The Socket.IO adapter (CONTRACT §18, server/realtime/cluster.ts). On PostgreSQL: the adapter's LISTEN
// connection is what GET /health/ready looks at (its loss: 503; its reconnection: 200 again). With
// SQLite there is one process: the in-memory adapter, always "up", never clustered.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Server } from 'socket.io';
import { config } from '../../server/config';
import { isPostgres } from '../../server/db';
import { adapterUp, clustered } from '../../server/realtime/cluster';
import { liveServer } from '../helpers/context';
import { messagesOf } from '../helpers/pg-messages';

const server = liveServer();

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ready = async () => (await server.api().get('/api/health/ready')).status;

/**
 * Emits `count` broadcasts in one turn (to a room nobody is in: they go to the other nodes only) and
 * returns what another node heard of them, in order — on PostgreSQL a connection listening on the
 * adapter's channel, as the other nodes' adapters do —, and what this process sent to PostgreSQL meanwhile.
 */
async function broadcastInOneTurn(count: number): Promise<{ heard: number[]; sent: string[] }> {
  const io = server.io as unknown as Server;
  const heard: number[] = [];
  let listener: pg.Client | undefined;
  if (isPostgres) {
    listener = new pg.Client({ connectionString: config.databaseUrl! });
    await listener.connect();
    listener.on('notification', ({ payload }) => {
      const message = JSON.parse(payload ?? '{}') as { data?: { packet?: { data?: unknown[] } } };
      const [event, n] = message.data?.packet?.data ?? [];
      if (event === 'prueba:orden') heard.push(n as number);
    });
    await listener.query('LISTEN "socket.io#/"');
  }
  try {
    const sent = await messagesOf(async () => {
      for (let n = 0; n < count; n++) io.to('prueba-orden').emit('prueba:orden', n);
      await until(() => !isPostgres || heard.length >= count, 5_000);
    });
    return { heard, sent };
  } finally {
    await listener?.end();
  }
}

describe('the adapter', () => {
  it('readiness follows the LISTEN connection: 503 while it is lost, 200 once it is back', async () => {
    if (!isPostgres) {
      expect([adapterUp(), clustered(), await ready()]).toEqual([true, false, 200]);
      return;
    }
    expect(clustered()).toBe(true);
    await until(adapterUp, 5_000);
    expect(await ready()).toBe(200);
    // PostgreSQL drops the adapter's LISTEN connection (a restart, a failover would).
    const admin = new pg.Client({ connectionString: config.databaseUrl! });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await until(() => !adapterUp(), 5_000);
    expect(await ready()).toBe(503);
    // The adapter reconnects by itself (within about 2 s), and this node's broadcasts leave again: the
    // dropped connection no longer holds one of the adapter's two.
    await until(adapterUp, 10_000);
    expect(await ready()).toBe(200);
    expect((await broadcastInOneTurn(5)).heard).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('broadcasts of one turn', () => {
  it('reach the other nodes in their order, many in one NOTIFY statement', async () => {
    const { heard, sent } = await broadcastInOneTurn(50);
    const notifies = sent.filter((text) => text.includes('pg_notify'));
    if (isPostgres) {
      expect(heard).toEqual([...Array(50).keys()]);
      expect(notifies.length).toBeGreaterThan(0);
      expect(notifies.length).toBeLessThanOrEqual(2);
    } else expect({ heard, notifies }).toEqual({ heard: [], notifies: [] });
  });
});
