// Start-up refuses an operator's mistake (CONTRACT §14): the real server exits with code 1 and exactly
// one Spanish line on stderr — the line of the STARTUP_ERR catalogue for that mistake, never a stack
// trace — and leaves nothing behind (no empty database created over lost data).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTORE_DOC, STARTUP_ERR } from '@shared/labels';
import { PASSWORD_CONTROL_MSG, PASSWORD_LENGTH_MSG } from '@shared/schemas/auth';
import { ROOT, cleanup, runToExit, startServer, tempDir } from './harness';

afterAll(cleanup);

/** Runs the server with `env` and expects the refusal `line`: exit 1, that one line, nothing else. */
async function expectRefusal(
  env: Record<string, string | undefined>,
  line: string,
  opts: { obeyFileModes?: boolean } = {},
) {
  const r = await runToExit({ env, ...opts });
  expect(r.stderr).toBe(`${line}\n`);
  expect(r.stderr).not.toMatch(/\bat .*:\d+:\d+/); // no stack frame
  expect(r.code).toBe(1);
  return r;
}

const backupName = (iso: string) => `torre-${iso.replace(/[:.]/g, '-')}.db`;

/** A data folder with a backups/ folder holding two backups (and things that are not backups). */
function withBackups(dir: string): string {
  const backups = path.join(dir, 'backups');
  fs.mkdirSync(backups);
  fs.writeFileSync(path.join(backups, backupName('2026-11-20T03:00:00.000Z')), 'copia');
  fs.writeFileSync(path.join(backups, backupName('2026-11-21T03:00:00.000Z')), 'copia');
  fs.writeFileSync(path.join(backups, `${backupName('2026-11-22T03:00:00.000Z')}.partial`), 'a medias');
  fs.writeFileSync(path.join(backups, 'notas.txt'), 'otra cosa');
  return path.join(backups, backupName('2026-11-21T03:00:00.000Z'));
}

describe('start-up refuses an operator mistake with one Spanish line and exit code 1', () => {
  it('an ADMIN_EMAIL that registration would refuse', async () => {
    const dir = tempDir('start');
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), ADMIN_EMAIL: 'jefa-sin-arroba' },
      STARTUP_ERR.adminEmail('El email no tiene un formato válido'),
    );
  });

  it('an ADMIN_PASSWORD that registration would refuse: too short, or with a control character', async () => {
    const dir = tempDir('start');
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), ADMIN_PASSWORD: 'corta12' },
      STARTUP_ERR.adminPassword(PASSWORD_LENGTH_MSG),
    );
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), ADMIN_PASSWORD: 'clave\u0007suficientemente-larga' },
      STARTUP_ERR.adminPassword(PASSWORD_CONTROL_MSG),
    );
    expect(fs.existsSync(path.join(dir, 'torre.db'))).toBe(false);
  });

  it('a JWT_SECRET shorter than 32 characters', async () => {
    const dir = tempDir('start');
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), JWT_SECRET: 'x'.repeat(31) },
      STARTUP_ERR.jwtSecretShort(31),
    );
  });

  it('a 0-byte database file (and names the newest backup when there is one)', async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    fs.writeFileSync(db, '');
    await expectRefusal({ DB_PATH: db }, STARTUP_ERR.emptyDb(db, null));
    const newest = withBackups(dir);
    const r = await expectRefusal({ DB_PATH: db }, STARTUP_ERR.emptyDb(db, newest));
    expect(r.stderr).toContain(RESTORE_DOC);
    expect(fs.statSync(db).size).toBe(0); // left as it was
  });

  it('a missing database while the data folder holds backups: names the newest and the restore steps', async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    const newest = withBackups(dir);
    const r = await expectRefusal({ DB_PATH: db }, STARTUP_ERR.missingDb(db, newest));
    expect(r.stderr).toContain(path.basename(newest));
    expect(r.stderr).toContain(`cp "${newest}" "${db}"`);
    expect(r.stderr).toContain('docs/OPERATIONS.md');
    expect(fs.existsSync(db)).toBe(false); // no empty database started over the lost one
    // The steps it points to exist.
    const doc = fs.readFileSync(path.join(ROOT, 'docs/OPERATIONS.md'), 'utf8');
    expect(doc).toContain(`## ${RESTORE_DOC.split('«')[1].replace('»', '')}`);
  });

  it('a busy port', async () => {
    const dir = tempDir('start');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await expectRefusal(
        { DB_PATH: path.join(dir, 'torre.db'), PORT: String(port) },
        STARTUP_ERR.portInUse(port, '127.0.0.1'),
      );
    } finally {
      taken.close();
    }
  });

  it('a corrupt database file (garbage, or garbage behind an SQLite header)', async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    fs.writeFileSync(db, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 131 + 7) % 256)));
    await expectRefusal({ DB_PATH: db }, STARTUP_ERR.corruptDb(db, null));
    fs.writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8000, 0xa5)]));
    const newest = withBackups(dir);
    await expectRefusal({ DB_PATH: db }, STARTUP_ERR.corruptDb(db, newest));
  });

  it('an unreadable database: a folder where the file should be', async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    fs.mkdirSync(db);
    await expectRefusal({ DB_PATH: db }, STARTUP_ERR.unreadableDb(db, 'SQLITE_CANTOPEN'));
  });

  // retry: once in a full 0700-clone run it failed for a reason not yet seen (green alone and in another full run).
  it('an unreadable database: a file the server’s user may not read', { retry: 2 }, async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    // A real database, made unreadable for the server's user (root too: it runs without the override).
    const first = await startServer({ env: { DB_PATH: db } });
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    fs.chmodSync(db, 0o000);
    await expectRefusal(
      { DB_PATH: db, JWT_SECRET: 's'.repeat(40) },
      STARTUP_ERR.unreadableDb(db, 'SQLITE_CANTOPEN'),
      { obeyFileModes: true },
    );
  });

  it('a LOG_LEVEL that is not one', async () => {
    const dir = tempDir('start');
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), LOG_LEVEL: 'verbose' },
      STARTUP_ERR.logLevel('verbose', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    );
  });

  it('a PORT or a BCRYPT_COST that is not one', async () => {
    const dir = tempDir('start');
    const db = path.join(dir, 'torre.db');
    await expectRefusal({ DB_PATH: db, PORT: 'ochenta' }, STARTUP_ERR.port('ochenta'));
    await expectRefusal({ DB_PATH: db, BCRYPT_COST: '2' }, STARTUP_ERR.bcryptCost('2'));
  });

  it('a TRUST_PROXY that is neither a hop count nor addresses', async () => {
    const dir = tempDir('start');
    await expectRefusal(
      { DB_PATH: path.join(dir, 'torre.db'), TRUST_PROXY: 'el-balanceador' },
      STARTUP_ERR.trustProxy('el-balanceador'),
    );
  });
});

describe('what start-up accepts', () => {
  it('a fresh folder with no database and no backups; valid credentials (the email is normalised)', async () => {
    const dir = tempDir('start');
    const server = await startServer({
      env: {
        DB_PATH: path.join(dir, 'torre.db'),
        ADMIN_EMAIL: '  Jefa@Proceso.TEST ',
        JWT_SECRET: 'j'.repeat(32),
      },
    });
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'jefa@proceso.test', password: 'clave-de-proceso-1234' }),
    });
    expect(res.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');
  });
});
