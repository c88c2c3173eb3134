// Security properties of the API (CONTRACT §2, §3, §4): the headers, CORS only for CORS_ORIGIN, the
// login rate limit, the bcrypt cost, no password hash in any answer, and the JWT secret never logged.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { LOGIN_RATE_LIMIT } from '@shared/constants';
import { configure, loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { isPostgres } from '../../server/db';
import { users } from '../../server/db/tables';
import { PASSWORD, advanceClock, db, makePunch, makeTask, makeUser, setupApp } from '../helpers/context';
import supertest from 'supertest';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-security-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('headers', () => {
  it('helmet: a strict CSP (no inline or eval scripts), nosniff, frame refusal, no X-Powered-By', async () => {
    const { api } = await setupApp();
    const res = await api().get('/api/server-time');
    const csp = res.headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('CORS', () => {
  const ORIGIN = 'https://patio.example.com';

  it('no CORS_ORIGIN: no Access-Control-Allow-Origin for anybody', async () => {
    const { api } = await setupApp();
    configure({ corsOrigin: undefined });
    const app = supertest(createApp());
    const res = await app.get('/api/server-time').set('Origin', ORIGIN);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await api().get('/api/server-time').set('Origin', 'https://evil.example')).headers,
    ).not.toHaveProperty('access-control-allow-origin');
  });

  it('with CORS_ORIGIN: that origin gets the headers (and the preflight), any other origin does not', async () => {
    await setupApp();
    configure({ corsOrigin: ORIGIN });
    const app = supertest(createApp());
    const allowed = await app.get('/api/server-time').set('Origin', ORIGIN);
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    const preflight = await app
      .options('/api/tasks')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/authorization/i);
    for (const other of ['https://evil.example', 'https://patio.example.com.evil.example', 'null']) {
      const res = await app.get('/api/server-time').set('Origin', other);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const pre = await app
        .options('/api/tasks')
        .set('Origin', other)
        .set('Access-Control-Request-Method', 'POST');
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    }
    configure({ corsOrigin: undefined });
  });
});

describe('login rate limit', () => {
  it(`${LOGIN_RATE_LIMIT.max} failures per IP + email, then 429 even with the right password; other emails unaffected; the window passes`, async () => {
    const { api } = await setupApp();
    const victim = await makeUser('gestor');
    const other = await makeUser('gestor');
    const attempt = (email: string, password: string) =>
      api().post('/api/auth/login').send({ email, password });
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++)
      expect((await attempt(victim.user.email, 'mala-contraseña')).status).toBe(401);
    const blocked = await attempt(victim.user.email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Demasiados intentos. Inténtalo de nuevo más tarde');
    expect((await attempt(other.user.email, PASSWORD)).status).toBe(200);
    await advanceClock(LOGIN_RATE_LIMIT.windowMs + 1000);
    expect((await attempt(victim.user.email, PASSWORD)).status).toBe(200);
  });
});

describe('passwords', () => {
  it('bcrypt cost is at least 10 by default', () => {
    const defaults = loadConfig({ DB_PATH: ':memory:' });
    expect(defaults.bcryptCost).toBeGreaterThanOrEqual(10);
    expect(defaults.bcryptCost).toBe(12);
  });

  it('a registration is hashed with the configured cost, never stored in clear', async () => {
    const { api } = await setupApp();
    configure({ bcryptCost: 10 });
    const res = await api()
      .post('/api/auth/register')
      .send({ email: 'coste@test.local', password: 'contraseña-larga', name: 'Coste' });
    expect(res.status).toBe(201);
    const [row] = await db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(bcrypt.getRounds(row.passwordHash)).toBe(10);
    expect(row.passwordHash).not.toContain('contraseña-larga');
    configure({ bcryptCost: 4 });
  });

  it('no answer of any endpoint carries a password hash', async () => {
    const { api } = await setupApp();
    configure({ dataDir: tmp });
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque', 'swap'] });
    const pending = await makeUser('gestor', { approved: false });
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, trailerId: 'HASH-1' });
    await makeTask({ trailerId: 'HASH-2', vehicleType: 'swap' });
    await makePunch(driver.user.id, 'entrada');
    const range = 'date_from=2026-01-01&date_to=2026-01-02';
    const calls: [string, string, object?, { Authorization: string }?][] = [
      ['post', '/api/auth/register', { email: 'nuevo@test.local', password: 'abcdefgh1', name: 'Nuevo' }],
      ['post', '/api/auth/login', { email: admin.user.email, password: PASSWORD }],
      ['post', '/api/auth/refresh'],
      ['get', '/api/dashboard/stats'],
      ['get', '/api/dashboard/online-drivers'],
      ['get', '/api/dashboard/rankings'],
      ['get', '/api/tasks'],
      ['get', '/api/notifications'],
      ['get', `/api/tasks/${task.id}/eligible-drivers`],
      ['get', '/api/admin/search/tasks?query=HASH'],
      ['get', '/api/admin/timeclock/daily'],
      ['get', `/api/admin/timeclock/export-excel?${range}`],
      ['get', '/api/admin/reports/deficiencies'],
      ['get', '/api/admin/reports/delayed-assignments'],
      ['get', '/api/admin/pending-users'],
      ['get', '/api/admin/users'],
      ['get', '/api/admin/analytics/drivers'],
      ['get', `/api/admin/analytics/export-excel?${range}`],
      ['get', '/api/admin/system/db-status'],
      ['get', '/api/admin/system/health-check'],
      ['get', '/api/admin/system/logs?limit=500'],
      [
        'post',
        '/api/admin/update-user-task-types',
        { user_id: driver.user.id, task_types: ['swap', 'semiremolque'] },
      ],
      ['post', '/api/admin/approve-user', { user_id: pending.user.id, approved: true }],
      ['post', '/api/admin/update-user-role', { user_id: pending.user.id, new_role: 'manager' }],
      ['post', '/api/admin/system/run-migrations'],
      ['post', '/api/admin/system/backup'],
      ['get', '/api/tasks', undefined, driver.auth],
      ['get', '/api/tasks/my-active', undefined, driver.auth],
      ['get', '/api/tasks/swap-available', undefined, driver.auth],
      ['get', '/api/timeclock/status', undefined, driver.auth],
      ['get', '/api/notifications', undefined, driver.auth],
      ['post', `/api/tasks/${task.id}/complete`, undefined, driver.auth],
      ['delete', `/api/admin/delete-user/${pending.user.id}`],
      ['post', '/api/admin/reset-rankings'],
    ];
    for (const [method, url, body, auth] of calls) {
      const agent = api() as unknown as Record<string, (u: string) => supertest.Test>;
      const req = agent[method](url)
        .set(auth ?? admin.auth)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      const res = await (body ? req.send(body) : req);
      // PostgreSQL's backups are the database's own (CONTRACT §18): the endpoint refuses with a 409.
      if (isPostgres && url === '/api/admin/system/backup') expect(res.status, `${method} ${url}`).toBe(409);
      else expect(res.status, `${method} ${url}`).toBeLessThan(300);
      const text = (res.body as Buffer).toString('latin1');
      expect(text, url).not.toContain('$2b$');
      expect(text, url).not.toContain('$2a$');
      expect(text.toLowerCase(), url).not.toContain('password');
      expect(text.toLowerCase(), url).not.toContain('password_hash');
    }
  });
});

describe('the JWT secret is never logged', () => {
  it('the real server, at trace level, logs neither its secret, nor passwords, nor tokens', async () => {
    // Start the real server at debug level with a known secret, use it, read every line.
    const SECRET = 'jwt-secreto-que-nunca-debe-salir-0123456789';
    const ADMIN_PASSWORD = 'admin-clave-que-no-se-imprime';
    const port = 5900 + Math.floor(Math.random() * 90);
    const dataDir = fs.mkdtempSync(path.join(tmp, 'log-'));
    let output = '';
    const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_PATH: path.join(dataDir, 'torre.db'),
        JWT_SECRET: SECRET,
        ADMIN_EMAIL: 'jefe@log.test',
        ADMIN_PASSWORD,
        LOG_LEVEL: 'trace',
        BCRYPT_COST: '4',
        SERVE_CLIENT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const base = `http://127.0.0.1:${port}/api`;
      for (let i = 0; i < 150; i++) {
        try {
          if ((await fetch(`${base}/server-time`)).ok) break;
        } catch {
          /* not up yet */
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'jefe@log.test', password: ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'jefe@log.test', password: 'equivocada' }),
      });
      await fetch(`${base}/tasks`, { headers: { authorization: `Bearer ${access_token}x` } });
      await fetch(`${base}/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expect(output).toContain('Torre de Control');
      expect(output).not.toContain(SECRET);
      expect(output).not.toContain(ADMIN_PASSWORD);
      expect(output).not.toContain(access_token);
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);

  it('a generated secret is kept in a file only its owner can read', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'secret-'));
    const cfg = loadConfig({ DB_PATH: path.join(dir, 'torre.db') });
    const file = path.join(dir, 'jwt-secret');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(cfg.jwtSecret);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(cfg.jwtSecret.length).toBeGreaterThanOrEqual(64);
  });
});
