// Browser tests: build the client, start the real server as a child process on a fresh database
// (TEST_CLOCK=1, a known admin), and hand its URL to the tests through vitest's provide/inject.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { chromiumExecutable } from './chromium';

export const ADMIN = { email: 'admin@browser.test', password: 'admin-browser-1234' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    serverPort: number;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

export async function startAppProcess(
  port: number,
  dataDir: string,
  clientDist: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_PATH: path.join(dataDir, 'torre.db'),
      CLIENT_DIST: clientDist,
      TEST_CLOCK: '1',
      // Integraciones › Webhooks sends to a receiver on this machine (CONTRACT §21: tests only).
      WEBHOOK_ALLOW_LOOPBACK: '1',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Both streams are read (a pipe nobody reads fills up and blocks the server's logger).
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (d) => process.stderr.write(`[server] ${d}`));
  const url = `http://127.0.0.1:${port}/api/server-time`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

export default async function setup(project: TestProject) {
  // Resolve (and, from npm, unpack) Chromium once here, before the test files launch it.
  const browser = await chromiumExecutable();
  console.log(`[browser] Chromium: ${browser.path} (${browser.from})`);
  // Each run builds into its own folder, so parallel runs never serve each other's half-built files.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-browser-'));
  const clientDist = path.join(dataDir, 'client');
  execFileSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--logLevel', 'error', '--outDir', clientDist],
    // vitest sets NODE_ENV=test, which would give a development React build: test what users get.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  const port = 4100 + Math.floor(Math.random() * 800);
  const child = await startAppProcess(port, dataDir, clientDist);
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('dataDir', dataDir);
  project.provide('serverPort', port);
  return async () => {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
