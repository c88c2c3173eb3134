// The error handler's side of a failing disk (CONTRACT §3, §14), in process: when SQLite itself refuses a
// write — read-only, full, an I/O error, a file it cannot open — the answer is 503 `El almacenamiento no
// está disponible`, never a 500, and reads keep working. The database is made to refuse for real:
// `query_only` gives SQLITE_READONLY, `max_page_count` gives SQLITE_FULL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import {
  isStorageFailure,
  query,
  sqlite,
  StorageUnavailableError,
  withWriteConnection,
} from '../../server/db';
import { PASSWORD, connectSocket, makeUser, setupApp, setupServer, sleep } from '../helpers/context';
import { taskBody } from './harness';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});
afterEach(async () => {
  if (sqlite.open) await queryOnly('OFF');
});

/** The write connection refuses writes (SQLITE_READONLY) or takes them again; set between transactions. */
const queryOnly = (value: 'ON' | 'OFF') =>
  withWriteConnection((conn) => void conn.pragma(`query_only = ${value}`));
/** A page limit on the write connection (SQLITE_FULL past it); set between transactions. */
const maxPages = (extra: number) =>
  withWriteConnection((conn) => {
    const pages = conn.pragma('page_count', { simple: true }) as number;
    conn.pragma(`max_page_count = ${pages + extra}`);
  });

const unavailable = { detail: ERR.storageUnavailable };

describe('SQLite refusing a write is a 503', () => {
  it('read-only (SQLITE_READONLY): writes and logins answer 503, reads 200', async () => {
    const admin = await makeUser('admin', { email: 'jefa@errores.test' });
    expect((await api().post('/api/tasks').set(admin.auth).send(taskBody('RO-1'))).status).toBe(201);
    await queryOnly('ON');
    const write = await api().post('/api/tasks').set(admin.auth).send(taskBody('RO-2'));
    expect([write.status, write.body]).toEqual([503, unavailable]);
    const login = await api()
      .post('/api/auth/login')
      .send({ email: 'jefa@errores.test', password: PASSWORD });
    expect([login.status, login.body]).toEqual([503, unavailable]);
    const board = await api().get('/api/tasks').set(admin.auth);
    expect(board.status).toBe(200);
    expect(board.body.map((t: { trailer_id: string }) => t.trailer_id)).toEqual(['RO-1']);
  });

  it('full (SQLITE_FULL): a write that needs a page more answers 503', async () => {
    const admin = await makeUser('admin');
    await maxPages(0);
    let status = 201;
    // Descriptions big enough to need new pages soon.
    for (let i = 0; i < 200 && status === 201; i++) {
      const res = await api()
        .post('/api/tasks')
        .set(admin.auth)
        .send({ ...taskBody(`FULL-${i}`), description: 'x'.repeat(400) });
      status = res.status;
      if (status !== 201) expect(res.body).toEqual(unavailable);
    }
    expect(status).toBe(503);
  });

  it('full in the middle of a batch of creations: each answer matches the database', async () => {
    // SQLite rolls the whole batch's transaction back at SQLITE_FULL; the creations after it in the
    // same batch must not be written on their own (answered 503 yet kept).
    const admin = await makeUser('admin');
    await maxPages(3);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api()
          .post('/api/tasks')
          .set(admin.auth)
          .send({ ...taskBody(`LOTE-${i}`), description: 'y'.repeat(300 + ((i * 37) % 500)) })
          .then((res) => ({ trailer: `LOTE-${i}`, status: res.status, body: res.body })),
      ),
    );
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    const kept = new Set((await query<{ t: string }>('SELECT trailer_id AS t FROM tasks')).map((r) => r.t));
    for (const a of answers) {
      expect([201, 503], a.trailer).toContain(a.status);
      if (a.status === 503) expect(a.body).toEqual(unavailable);
      expect(kept.has(a.trailer), a.trailer).toBe(a.status === 201);
    }
  });

  it('a socket that comes and goes while writes fail: presence changes in memory, nothing throws', async () => {
    // Presence mirrors each transition in the database from socket events and timers: a refused write
    // there must not become an uncaught exception (it would end the process).
    const server = await setupServer();
    try {
      const gestor = await makeUser('gestor');
      await queryOnly('ON');
      const socket = await connectSocket(server.url, gestor.token);
      await sleep(100);
      const board = await server.api().get('/api/tasks').set(gestor.auth);
      expect(board.status).toBe(200);
      socket.close();
      await sleep(100);
    } finally {
      await queryOnly('OFF');
      await server.close();
    }
  });

  it('recognises the codes, also wrapped by drizzle, and nothing else', () => {
    const sqliteError = (code: string) => Object.assign(new Error(code), { code });
    for (const code of [
      'SQLITE_READONLY',
      'SQLITE_READONLY_DBMOVED',
      'SQLITE_FULL',
      'SQLITE_IOERR',
      'SQLITE_IOERR_WRITE',
      'SQLITE_CANTOPEN',
      'SQLITE_CORRUPT',
    ])
      expect(isStorageFailure(sqliteError(code)), code).toBe(true);
    expect(isStorageFailure(new DrizzleQueryError('INSERT …', [], sqliteError('SQLITE_FULL')))).toBe(true);
    expect(isStorageFailure(new StorageUnavailableError('missing'))).toBe(true);
    for (const code of ['ENOSPC', 'EROFS', 'EIO', 'EDQUOT'])
      expect(isStorageFailure(sqliteError(code)), code).toBe(true);
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_BUSY', 'SQLITE_ERROR', 'ENOENT', 'EACCES'])
      expect(isStorageFailure(sqliteError(code)), code).toBe(false);
    expect(isStorageFailure(new Error('boom'))).toBe(false);
  });
});
