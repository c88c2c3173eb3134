// Crash safety (CONTRACT §1: WAL + synchronous=NORMAL): the real server in a child process takes a
// stream of task creations, is killed with SIGKILL halfway, and restarts on the same database. Every
// task it acknowledged with 201 is there, the file passes integrity_check, and the migrations applied at
// the first start are not applied again. On PostgreSQL (CONTRACT §18) the node is what dies, on a
// database of its own: every acknowledged task is there and the restart migrates nothing (no file to
// check).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, isPostgres, openDb, query, runMigrations, sqlite } from '../../server/db';
import { closeDatabase, openDatabase } from '../../server/db/open';
import { sqlFor } from '../../server/db/dialect';
import { migratePostgres } from '../../server/db/migrate-pg';
import { postgresPool } from '../../server/db/postgres';
import { ADMIN, startAppProcess } from '../browser/global-setup';
import { freshPostgresDatabaseUrl } from '../helpers/postgres-db';

const TOTAL = 1000;
const CONCURRENCY = 20;
const KILL_AFTER = 300; // acknowledgements before the SIGKILL

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-crash-'));
const dbFile = path.join(dataDir, 'torre.db');
const noClient = path.join(dataDir, 'no-client');
const port = 5000 + Math.floor(Math.random() * 900);
const base = `http://127.0.0.1:${port}/api`;
const children: ChildProcess[] = [];
/** PostgreSQL: the database both starts of the server use. */
let databaseUrl: string | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await closeDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ChildProcess> {
  // The child takes its engine from the environment, copied when it is spawned (synchronously).
  let starting: Promise<ChildProcess>;
  if (isPostgres) {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = databaseUrl ??= await freshPostgresDatabaseUrl();
    try {
      starting = startAppProcess(port, dataDir, noClient);
    } finally {
      process.env.DATABASE_URL = saved;
    }
  } else starting = startAppProcess(port, dataDir, noClient);
  const child = await starting;
  children.push(child);
  return child;
}
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });

async function login(): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const JOURNAL = sqlFor({ sqlite: '__drizzle_migrations', postgres: 'drizzle.__drizzle_migrations' });
const appliedMigrations = async () =>
  (await query<{ n: number }>(`SELECT count(*) AS n FROM ${JOURNAL}`))[0].n;
const migrationsFolder = sqlFor({ sqlite: 'migrations', postgres: 'migrations-pg' });

describe('SIGKILL in the middle of a stream of writes', () => {
  it('keeps every acknowledged task, an intact file and idempotent migrations', async () => {
    const first = await start();
    const token = await login();
    const acked: string[] = [];
    let next = 0;
    let killed = false;

    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        try {
          const res = await fetch(`${base}/tasks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              title: 'Mover',
              origin: 'Muelle 9',
              destination: 'Campa Z',
              trailer_id: `CRASH-${i}`,
              vehicle_type: 'swap',
            }),
          });
          if (res.status === 201) {
            acked.push(((await res.json()) as { id: string }).id);
            if (acked.length >= KILL_AFTER && !killed) {
              killed = true;
              first.kill('SIGKILL');
            }
          } else {
            expect(killed).toBe(false);
            throw new Error(`unexpected ${res.status}`);
          }
        } catch (err) {
          if (!killed) throw err;
          return; // the server is gone: this request was never acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await exited(first);
    expect(killed).toBe(true);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acked.length).toBeLessThan(TOTAL);

    // Restart on the same file: it opens, migrates nothing new and serves the acknowledged tasks.
    const second = await start();
    const again = await login();
    const board = await fetch(`${base}/tasks`, { headers: { authorization: `Bearer ${again}` } });
    expect(board.status).toBe(200);
    const onBoard = new Set(((await board.json()) as { id: string }[]).map((t) => t.id));
    for (const id of acked) expect(onBoard.has(id)).toBe(true);
    second.kill('SIGTERM');
    await exited(second);

    // The file itself: intact, every acknowledged row present, and a third migration run applies 0.
    // PostgreSQL: the database the nodes used, every acknowledged row present, a third run applies 0.
    if (isPostgres) await openDatabase({ dbPath: ':memory:', databaseUrl });
    else {
      openDb(dbFile);
      expect(sqlite.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    }
    const ids = new Set(
      (await query<{ id: string }>("SELECT id FROM tasks WHERE trailer_id LIKE 'CRASH-%'")).map((r) => r.id),
    );
    for (const id of acked) expect(ids.has(id)).toBe(true);
    const journal = JSON.parse(
      fs.readFileSync(
        path.resolve(import.meta.dirname, `../../${migrationsFolder}/meta/_journal.json`),
        'utf8',
      ),
    ) as { entries: unknown[] };
    expect(await appliedMigrations()).toBe(journal.entries.length);
    if (isPostgres) await migratePostgres(postgresPool());
    else expect(runMigrations()).toBe(0);
    expect(await appliedMigrations()).toBe(journal.entries.length);
    if (isPostgres) await closeDatabase();
    else closeDb();
  }, 120_000);
});
