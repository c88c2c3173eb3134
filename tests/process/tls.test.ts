// HTTPS served by the server itself (CONTRACT §16: the phone's service worker and push need a secure
// context): with TLS_CERT and TLS_KEY the API and the socket answer over TLS; half a pair or a file
// that is not PEM stops the start with one Spanish line.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STARTUP_ERR } from '@shared/labels';
import { ROOT, cleanup, runToExit, startServer, tempDir } from './harness';

afterAll(cleanup);

const CERT = path.join(ROOT, 'tests/fixtures/push-service.crt');
const KEY = path.join(ROOT, 'tests/fixtures/push-service.key');

/** GET over TLS trusting only the fixture certificate (what a phone with the yard's CA would do). */
function getTls(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca: fs.readFileSync(CERT) }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('TLS_CERT / TLS_KEY', () => {
  it('serves the API over HTTPS with the given certificate', async () => {
    const dir = tempDir('tls');
    const server = await startServer({
      env: { DB_PATH: path.join(dir, 'torre.db'), TLS_CERT: CERT, TLS_KEY: KEY },
    });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await getTls(`${server.url}/api/server-time`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ epoch_ms: expect.any(Number) });
      // Plain HTTP on the same port is not served.
      await expect(fetch(`${server.url.replace('https', 'http')}/api/server-time`)).rejects.toThrow();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses half a pair, an unreadable file and a file that is not PEM', async () => {
    const dir = tempDir('tls');
    const db = path.join(dir, 'torre.db');
    const refusal = async (env: Record<string, string>, line: string) => {
      const r = await runToExit({ env: { DB_PATH: db, ...env } });
      expect(r.stderr).toBe(`${line}\n`);
      expect(r.code).toBe(1);
    };
    await refusal({ TLS_CERT: CERT }, STARTUP_ERR.tlsPair);
    const missing = path.join(dir, 'no-existe.key');
    await refusal({ TLS_CERT: CERT, TLS_KEY: missing }, STARTUP_ERR.tlsFile(missing, 'ENOENT'));
    const garbage = path.join(dir, 'basura.pem');
    fs.writeFileSync(garbage, 'esto no es un certificado');
    const r = await runToExit({ env: { DB_PATH: db, TLS_CERT: garbage, TLS_KEY: KEY } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^TLS_CERT o TLS_KEY no es un certificado o una clave PEM válidos/);
  });
});
