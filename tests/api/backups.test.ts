// Backups (CONTRACT §10): on demand from Sistema, daily from the jobs, the newest 7 kept, and the
// health check's view of them. On PostgreSQL the backups are the database's (CONTRACT §18): the endpoint
// answers 409, no job takes one, the health check says so; each test asserts that there instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKUPS_KEPT } from '@shared/constants';
import { HEALTH_MSG, SYSTEM_MSG } from '@shared/labels';
import type { BackupResult, HealthCheck, LogEntry } from '@shared/schemas';
import { config, configure } from '../../server/config';
import { isPostgres } from '../../server/db';
import { tasks, users } from '../../server/db/tables';
import { backupIfDue, backupsDir, takeBackup } from '../../server/services/backups';
import {
  BACKUP_CHECK_EVERY_MS,
  BACKUP_FIRST_CHECK_MS,
  startBackgroundJobs,
} from '../../server/services/jobs';
import { advanceClock, db, makeTask, makeUser, setupApp, sleep, tx } from '../helpers/context';

const NAME = /^torre-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/;
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-backups-'));
let api: Awaited<ReturnType<typeof setupApp>>['api'];

beforeEach(async () => {
  ({ api } = await setupApp());
  configure({ dataDir: fs.mkdtempSync(path.join(tmpRoot, 'data-')) });
});
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const files = () => (fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()).sort() : []);
const backupNow = (auth: { Authorization: string }) => api().post('/api/admin/system/backup').set(auth);
const health = async (auth: { Authorization: string }) =>
  (await api().get('/api/admin/system/health-check').set(auth)).body as HealthCheck;

/** PostgreSQL's answer to a backup request (CONTRACT §18). */
const refused = { status: 409, body: { detail: SYSTEM_MSG.backupPostgres } };
const postgresCheck = { status: 'healthy', message: HEALTH_MSG.backupPostgres };

describe('POST /admin/system/backup', () => {
  it('writes a valid SQLite copy with the same data into data/backups and logs it', async () => {
    const admin = await makeUser('admin', { name: 'Ana Admin' });
    await makeUser('conductor');
    await makeUser('gestor');
    await makeTask();
    await makeTask({ status: 'finalizada' });

    const res = await backupNow(admin.auth);
    if (isPostgres) {
      expect(res).toMatchObject(refused);
      expect(files()).toEqual([]);
      const logs = (await api().get('/api/admin/system/logs').set(admin.auth)).body as LogEntry[];
      expect(logs.map((l) => l.action)).not.toContain('Crear copia de seguridad');
      return;
    }
    expect(res.status).toBe(200);
    const body = res.body as BackupResult;
    expect(body.file).toMatch(NAME);
    expect(body.message).toBe(`Copia de seguridad creada: ${body.file}`);
    expect(files()).toEqual([body.file]);

    const copy = new Database(path.join(backupsDir(), body.file));
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const live = await db.select({ id: users.id, email: users.email }).from(users);
      const copied = copy.prepare('SELECT id, email FROM users').all();
      expect(live.length).toBe(3);
      expect(copied).toEqual(expect.arrayContaining(live));
      expect(copied).toHaveLength(live.length);
      expect(copy.prepare('SELECT count(*) AS n FROM tasks').get()).toEqual({ n: 2 });
    } finally {
      copy.close();
    }

    const logs = (await api().get('/api/admin/system/logs').set(admin.auth)).body as LogEntry[];
    expect(logs[0]).toMatchObject({
      type: 'system',
      user: 'Ana Admin',
      action: 'Crear copia de seguridad',
      details: expect.stringContaining(body.file),
    });
  });

  it(`keeps only the newest ${BACKUPS_KEPT}, leaving other files alone`, async () => {
    const admin = await makeUser('admin');
    fs.mkdirSync(backupsDir(), { recursive: true });
    fs.writeFileSync(path.join(backupsDir(), 'LEEME.txt'), 'no es una copia');
    if (isPostgres) {
      for (let i = 0; i < 2; i++) expect(await backupNow(admin.auth)).toMatchObject(refused);
      expect(files()).toEqual(['LEEME.txt']);
      return;
    }
    const made: string[] = [];
    for (let i = 0; i < BACKUPS_KEPT + 2; i++) {
      made.push(((await backupNow(admin.auth)).body as BackupResult).file);
      await advanceClock(60_000);
    }
    expect(new Set(made).size).toBe(BACKUPS_KEPT + 2);
    expect(files()).toEqual(['LEEME.txt', ...made.slice(2)].sort());

    const logs = (await api().get('/api/admin/system/logs?limit=1').set(admin.auth)).body as LogEntry[];
    expect(logs[0].details).toContain('1 copia antigua eliminada');
  });

  it('gives two backups taken at once two files, and clears a partial file left by a crash', async () => {
    const admin = await makeUser('admin');
    fs.mkdirSync(backupsDir(), { recursive: true });
    fs.writeFileSync(path.join(backupsDir(), 'torre-2020-01-01T00-00-00-000Z.db.partial'), 'x');
    const [a, b] = await Promise.all([backupNow(admin.auth), backupNow(admin.auth)]);
    if (isPostgres) {
      // Nothing of this server's touches the folder.
      expect([a, b]).toMatchObject([refused, refused]);
      expect(files()).toEqual(['torre-2020-01-01T00-00-00-000Z.db.partial']);
      return;
    }
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.file).not.toBe(b.body.file);
    expect(files()).toEqual([a.body.file, b.body.file].sort());
  });
});

describe('a backup while transactions are open', () => {
  it('waits for the open one and copies only what is committed', async () => {
    await makeTask({ trailerId: 'ANTES' });
    let giveUp!: () => void;
    const held = new Promise<void>((resolve) => (giveUp = resolve));
    // A request's transaction awaiting between its statements: its row is written, not committed.
    const open = tx(async () => {
      await makeTask({ trailerId: 'NUNCA' });
      await held;
      throw new Error('rolled back');
    });
    await sleep(20);
    if (isPostgres) {
      // Refused at once, open transaction or not: PostgreSQL's own backups see committed data only.
      const refusal = takeBackup(null).catch((err: unknown) => err);
      giveUp();
      await expect(open).rejects.toThrow('rolled back');
      expect(await refusal).toMatchObject({ status: 409, detail: SYSTEM_MSG.backupPostgres });
      expect(files()).toEqual([]);
      return;
    }
    const backup = takeBackup(null);
    await sleep(50);
    giveUp();
    await expect(open).rejects.toThrow('rolled back');
    const { file } = await backup;

    const copy = new Database(path.join(backupsDir(), file), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT trailer_id AS t FROM tasks').all()).toEqual([{ t: 'ANTES' }]);
    } finally {
      copy.close();
    }
    expect(await db.select({ t: tasks.trailerId }).from(tasks)).toEqual([{ t: 'ANTES' }]);
  });
});

describe('daily backup', () => {
  it('is taken when none is younger than a day, by the Sistema actor', async () => {
    if (isPostgres) {
      // Never due: PostgreSQL's backups are not this server's.
      expect(await backupIfDue()).toBeNull();
      await advanceClock(48 * 60 * 60_000);
      expect(await backupIfDue()).toBeNull();
      expect(files()).toEqual([]);
      return;
    }
    const first = await backupIfDue();
    expect(first?.file).toMatch(NAME);
    expect(await backupIfDue()).toBeNull();
    await advanceClock(23 * 60 * 60_000);
    expect(await backupIfDue()).toBeNull();
    await advanceClock(60 * 60_000);
    const second = await backupIfDue();
    expect(second?.file).toMatch(NAME);
    expect(files()).toEqual([first!.file, second!.file].sort());

    const logs = (
      await api()
        .get('/api/admin/system/logs?limit=1')
        .set((await makeUser('admin')).auth)
    ).body as LogEntry[];
    expect(logs[0]).toMatchObject({
      type: 'system',
      user: 'Sistema',
      action: 'Copia de seguridad automática',
    });
  });

  describe('the server job', () => {
    const fakeTimers = () =>
      vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('looks a minute after start, then hourly, and stops with the server', async () => {
      fakeTimers();
      // The job only needs to know the database is a file; the backup copies the open one.
      configure({ dbPath: path.join(config.dataDir, 'torre.db') });
      const stop = startBackgroundJobs();
      if (isPostgres) {
        // No schedule at all on PostgreSQL, even with a database path configured.
        vi.advanceTimersByTime(BACKUP_FIRST_CHECK_MS + 2 * BACKUP_CHECK_EVERY_MS);
        stop();
        expect(vi.getTimerCount()).toBe(0);
        expect(files()).toEqual([]);
        return;
      }
      try {
        vi.advanceTimersByTime(BACKUP_FIRST_CHECK_MS - 1);
        expect(files()).toEqual([]);
        vi.advanceTimersByTime(1);
        await vi.waitFor(() => expect(files()).toHaveLength(1));

        vi.advanceTimersByTime(BACKUP_CHECK_EVERY_MS); // a day has not passed: nothing
        await advanceClock(24 * 60 * 60_000);
        vi.advanceTimersByTime(BACKUP_CHECK_EVERY_MS);
        await vi.waitFor(() => expect(files()).toHaveLength(2));
      } finally {
        stop();
      }
      await advanceClock(24 * 60 * 60_000);
      vi.advanceTimersByTime(2 * BACKUP_CHECK_EVERY_MS);
      await takeBackup(null); // waits for anything a stray timer might have started
      expect(files()).toHaveLength(3);
    });

    it('schedules nothing for an in-memory database', async () => {
      fakeTimers();
      // What the job looks at (the test's database itself is a file).
      configure({ dbPath: ':memory:' });
      const stop = startBackgroundJobs();
      vi.advanceTimersByTime(2 * BACKUP_CHECK_EVERY_MS);
      stop();
      expect(files()).toEqual([]);
    });
  });
});

describe('health check: backup', () => {
  it('is healthy on a young server without backups, and warns once it is over a day old', async () => {
    if (isPostgres) {
      expect((await health((await makeUser('admin')).auth)).checks.backup).toEqual(postgresCheck);
      await advanceClock(25 * 60 * 60_000);
      expect((await health((await makeUser('admin')).auth)).checks.backup).toEqual(postgresCheck);
      return;
    }
    expect((await health((await makeUser('admin')).auth)).checks.backup).toEqual({
      status: 'healthy',
      message: HEALTH_MSG.backupNoneYet,
    });
    await advanceClock(25 * 60 * 60_000);
    const old = await health((await makeUser('admin')).auth);
    expect(old.checks.backup).toEqual({ status: 'warning', message: 'No hay ninguna copia de seguridad' });
    expect(old.overall_status).not.toBe('healthy');
  });

  it('is healthy within 26 h of the newest backup and warns after', async () => {
    if (isPostgres) {
      // A file that looks like an old backup in the folder is not PostgreSQL's backup.
      fs.mkdirSync(backupsDir(), { recursive: true });
      fs.writeFileSync(path.join(backupsDir(), 'torre-2020-01-01T00-00-00-000Z.db'), 'x');
      expect((await health((await makeUser('admin')).auth)).checks.backup).toEqual(postgresCheck);
      return;
    }
    const { file } = await takeBackup(null);
    await advanceClock(3 * 60 * 60_000 + 5 * 60_000);
    expect((await health((await makeUser('admin')).auth)).checks.backup).toEqual({
      status: 'healthy',
      message: `Última copia hace 3 h 05 min (${file})`,
    });
    await advanceClock(23 * 60 * 60_000);
    const stale = await health((await makeUser('admin')).auth);
    expect(stale.checks.backup).toEqual({
      status: 'warning',
      message: `La última copia es de hace 1 d 2 h (${file}); debería haber una cada día`,
    });
  });
});
