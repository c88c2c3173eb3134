// The Socket.IO adapter (CONTRACT §18, server/realtime/cluster.ts). On PostgreSQL: the adapter's LISTEN
// connection is what GET /health/ready looks at (its loss: 503; its reconnection: 200 again). With
// SQLite there is one process: the in-memory adapter, always "up", never clustered.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { config } from '../../server/config';
import { isPostgres } from '../../server/db';
import { adapterUp, clustered } from '../../server/realtime/cluster';
import { liveServer } from '../helpers/context';

const server = liveServer();

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ready = async () => (await server.api().get('/api/health/ready')).status;

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
    // The adapter reconnects by itself (within about 2 s).
    await until(adapterUp, 10_000);
    expect(await ready()).toBe(200);
  });
});
