// WAL checkpoints off the request path (server/db/checkpointer.ts): the worker copies what the server
// committed into the database file by itself, while the server's own threshold stays out of the way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { closeDb, execute, openDb, runMigrations, sqlite, tx } from '../../server/db';
import { CHECKPOINT_EVERY_MS, startCheckpointer } from '../../server/db/checkpointer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-checkpoint-'));
afterEach(() => {
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('copies committed pages into the database file within a few seconds, then stops on request', async () => {
  const file = path.join(dir, 'torre.db');
  openDb(file);
  runMigrations();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const stop = startCheckpointer(file);
  expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
  const before = fs.statSync(file).size;
  // ~2 MB in the WAL: far below the server's own threshold, so only the worker can move it.
  await tx(async () => {
    for (let i = 0; i < 500; i++)
      await execute(
        "INSERT INTO activity_log (type, user_name, action, details, timestamp) VALUES ('system', 'Sistema', 'bulk', ?, 0)",
        ['x'.repeat(4_000)],
      );
  });
  expect(fs.statSync(file).size).toBe(before);
  const deadline = Date.now() + 5 * CHECKPOINT_EVERY_MS;
  while (fs.statSync(file).size === before && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(fs.statSync(file).size).toBeGreaterThan(before + 1_000_000);
  await stop();
});
