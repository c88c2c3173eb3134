// A disk that fails under the running server (CONTRACT §14): the database file deleted or its folder
// removed, the data folder turned read-only, the disk full. Each time the admin health check says
// `database: error`, writes answer 503 `El almacenamiento no está disponible` — never a 500 and never a
// 201 for a write that is not kept — a login (it writes) answers 503 too, and a token already issued
// keeps reading. The read-only and full disks are made inside the server's own mount namespace (root).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ERR, HEALTH_MSG } from '@shared/labels';
import {
  adminToken,
  api,
  canUseMountNamespace,
  cleanup,
  createTask,
  databaseHealth,
  inNamespace,
  loginAs,
  sleep,
  startServer,
  tempDir,
  type ServerProcess,
} from './harness';

afterEach(cleanup);

/** Longer than the storage verdict's age (STORAGE_CHECK_EVERY_MS), for failures no file event announces. */
const VERDICT_AGE = 1_200;

/** The server while its storage works: a token, one task written, the database check healthy. */
async function healthyStart(server: ServerProcess) {
  const token = await adminToken(server.url);
  const before = await createTask(server.url, token, 'ANTES-1');
  expect(before.status).toBe(201);
  expect((await databaseHealth(server.url, token)).status).toBe('healthy');
  return { token, kept: before.body.id };
}

/** Everything the contract asks of a server whose storage failed. */
async function expectStorageRefused(server: ServerProcess, token: string, healthMessage: string) {
  const health = await databaseHealth(server.url, token);
  expect(health).toEqual({ status: 'error', message: healthMessage });
  const write = await createTask(server.url, token, 'DESPUES-1');
  expect(write).toEqual({ status: 503, body: { detail: ERR.storageUnavailable } });
  const again = await createTask(server.url, token, 'DESPUES-2');
  expect(again.status).toBe(503);
  // A login writes (its session and the activity log): refused too.
  const login = await loginAs(server.url);
  expect(login).toEqual({ status: 503, body: { detail: ERR.storageUnavailable } });
  // The token already issued keeps reading.
  const board = await api<{ trailer_id: string }[]>(server.url, '/tasks', { token });
  expect(board.status).toBe(200);
  const trailers = board.body.map((t) => t.trailer_id);
  expect(trailers).toContain('ANTES-1');
  expect(trailers).not.toContain('DESPUES-1');
}

describe('the database file deleted while the server runs', () => {
  it('unlinked: a write just after is refused with 503, not written into the deleted file', async () => {
    const dir = tempDir('storage');
    const db = path.join(dir, 'torre.db');
    const server = await startServer({ env: { DB_PATH: db } });
    const { token } = await healthyStart(server);
    // A write now leaves a fresh "storage fine" verdict: only the file's own event can drop it in time.
    expect((await createTask(server.url, token, 'ANTES-2')).status).toBe(201);
    fs.rmSync(db);
    await sleep(150);
    expect(await createTask(server.url, token, 'JUSTO-DESPUES')).toEqual({
      status: 503,
      body: { detail: ERR.storageUnavailable },
    });
    await expectStorageRefused(server, token, HEALTH_MSG.databaseMissing);

    // The server still has the deleted file open: a backup now rescues everything answered 201.
    const backup = await api<{ file: string }>(server.url, '/admin/system/backup', { method: 'POST', token });
    expect(backup.status).toBe(200);
    const copy = new Database(path.join(dir, 'backups', backup.body.file), { readonly: true });
    const rescued = copy.prepare('SELECT trailer_id AS t FROM tasks ORDER BY t').all() as { t: string }[];
    copy.close();
    expect(rescued.map((r) => r.t)).toEqual(['ANTES-1', 'ANTES-2']);
  });

  it('the whole data folder removed', async () => {
    const dir = tempDir('storage');
    const data = path.join(dir, 'data');
    const server = await startServer({ env: { DB_PATH: path.join(data, 'torre.db') } });
    const { token } = await healthyStart(server);
    fs.rmSync(data, { recursive: true, force: true });
    await sleep(150);
    await expectStorageRefused(server, token, HEALTH_MSG.databaseMissing);
  });

  it('replaced by another file at the same path', async () => {
    const dir = tempDir('storage');
    const db = path.join(dir, 'torre.db');
    const server = await startServer({ env: { DB_PATH: db } });
    const { token } = await healthyStart(server);
    fs.copyFileSync(db, `${db}.copy`);
    fs.renameSync(`${db}.copy`, db);
    await sleep(150);
    await expectStorageRefused(server, token, HEALTH_MSG.databaseReplaced);
  });
});

describe.skipIf(!canUseMountNamespace)('the data folder made read-only or full under the server', () => {
  it('read-only (a read-only bind mount over the data folder)', async () => {
    const dir = tempDir('storage');
    const db = path.join(dir, 'torre.db');
    // Its own mount namespace: the read-only mount below is seen by the server only.
    const server = await startServer({ env: { DB_PATH: db }, prelude: 'true' });
    const { token, kept } = await healthyStart(server);
    expect(inNamespace(server.pid, `mount --bind -o ro "${dir}" "${dir}"`).status).toBe(0);
    await sleep(VERDICT_AGE);
    await expectStorageRefused(server, token, HEALTH_MSG.databaseReadOnly);

    // Writable again (the mount made read-write: SQLite may hold files open through it by now).
    expect(inNamespace(server.pid, `mount -o remount,bind,rw "${dir}"`).status).toBe(0);
    await sleep(VERDICT_AGE);
    const after = await createTask(server.url, token, 'DE-NUEVO-1');
    expect(after.status).toBe(201);
    expect((await databaseHealth(server.url, token)).status).toBe('healthy');

    // On disk: exactly what was answered 201, nothing refused.
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const file = new Database(db, { readonly: true });
    const rows = file.prepare('SELECT id, trailer_id AS trailer FROM tasks').all() as {
      id: string;
      trailer: string;
    }[];
    file.close();
    expect(rows.map((r) => r.trailer).sort()).toEqual(['ANTES-1', 'DE-NUEVO-1']);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([kept, after.body.id]));
  });

  it('full (a small tmpfs filled up)', async () => {
    const dir = tempDir('storage');
    const db = path.join(dir, 'torre.db');
    const server = await startServer({
      env: { DB_PATH: db },
      prelude: `mount -t tmpfs -o size=16m tmpfs "${dir}"`,
    });
    const { token } = await healthyStart(server);
    // Fill it from inside the namespace: `head` stops at ENOSPC with the disk full.
    inNamespace(server.pid, `head -c 64M /dev/zero > "${dir}/relleno"`);
    expect(inNamespace(server.pid, `test "$(stat -f -c %f "${dir}")" -eq 0`).status).toBe(0);
    await sleep(VERDICT_AGE);
    const health = await databaseHealth(server.url, token);
    expect(health.status).toBe('error');
    expect(health.message).toMatch(/^Sin espacio para la base de datos/);
    await expectStorageRefused(server, token, health.message);

    // Space freed: writes are taken again.
    expect(inNamespace(server.pid, `rm "${dir}/relleno"`).status).toBe(0);
    await sleep(VERDICT_AGE);
    expect((await createTask(server.url, token, 'DE-NUEVO-1')).status).toBe(201);
    expect((await loginAs(server.url)).status).toBe(200);
    const board = await api<{ trailer_id: string }[]>(server.url, '/tasks', { token });
    expect(board.body.map((t) => t.trailer_id).sort()).toEqual(['ANTES-1', 'DE-NUEVO-1']);
  });
});
