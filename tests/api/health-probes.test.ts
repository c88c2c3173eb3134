// The load balancer's probes (CONTRACT §18, §12): GET /api/health/live and /api/health/ready, public and
// without details; ready says 503 while the node shuts down or its database cannot take work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { closeDb, isPostgres, openDb, runMigrations } from '../../server/db';
import { closeDatabase, openDatabase } from '../../server/db/open';
import { createApp } from '../../server/app';
import { configure } from '../../server/config';
import { setDraining } from '../../server/services/health';
import supertest from 'supertest';
import { setupApp } from '../helpers/context';
import { freshPostgresDatabaseUrl } from '../helpers/postgres-db';

afterEach(() => setDraining(false));

describe('GET /api/health/live and /api/health/ready', () => {
  it('answer 200 without a token, with nothing but a status, and are never cached', async () => {
    const { api } = await setupApp();
    for (const probe of ['/api/health/live', '/api/health/ready']) {
      const res = await api().get(probe);
      expect(res.status, probe).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('ready is 503 while the node drains (a shutdown started); live stays 200', async () => {
    const { api } = await setupApp();
    setDraining(true);
    const ready = await api().get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable' });
    expect((await api().get('/api/health/live')).status).toBe(200);
    setDraining(false);
    expect((await api().get('/api/health/ready')).status).toBe(200);
  });

  it('ready is 503 when the database is closed, or its file was deleted under it (PostgreSQL: dropped)', async () => {
    const { api } = await setupApp();
    await closeDatabase();
    expect((await api().get('/api/health/ready')).status).toBe(503);
    expect((await api().get('/api/health/live')).status).toBe(200);

    if (isPostgres) {
      // PostgreSQL has no file to delete: its database goes away under the node instead.
      const url = await freshPostgresDatabaseUrl();
      configure({ databaseUrl: url });
      await openDatabase({ dbPath: ':memory:', databaseUrl: url });
      const onServer = () => supertest(createApp());
      expect((await onServer().get('/api/health/ready')).status).toBe(200);
      const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
      const res = await onServer().get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable' });
      expect((await onServer().get('/api/health/live')).status).toBe(200);
      await closeDatabase();
      return;
    }

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-ready-'));
    const file = path.join(dir, 'torre.db');
    configure({ dbPath: file, dataDir: dir });
    openDb(file);
    runMigrations();
    const onFile = () => supertest(createApp());
    expect((await onFile().get('/api/health/ready')).status).toBe(200);
    fs.rmSync(dir, { recursive: true, force: true });
    const res = await onFile().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable' });
    closeDb();
  });
});
