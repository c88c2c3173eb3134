// PostgreSQL from a checkout wherever it is (scripts/postgres/embedded.ts; issue 25): as root, PostgreSQL
// runs as the `postgres` OS user, who cannot enter a 0700 folder, so its programs run from a copy under
// /tmp. Each test makes a checkout in a 0700 folder — package.json, embedded.ts and a node_modules whose
// PostgreSQL package is a real folder inside it (pg, a link) — and starts a cluster from it in a child process, as
// the tests, the bench and `npm run cluster` do.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BINARIES_PACKAGE } from '../../scripts/postgres/embedded';
import { ROOT, cleanup, tempDir } from './harness';

const root = process.getuid?.() === 0;
const copies = new Set<string>();

afterEach(async () => {
  await cleanup();
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
  copies.clear();
});

/** A checkout in a folder only its owner can enter, its PostgreSQL package made by `binaries`. */
function checkout(binaries: (pkg: string) => void): string {
  const outer = tempDir('pg-checkout');
  fs.chmodSync(outer, 0o700);
  const dir = path.join(outer, 'c');
  fs.mkdirSync(path.join(dir, 'scripts/postgres'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json')); // an ES module package
  fs.copyFileSync(
    path.join(ROOT, 'scripts/postgres/embedded.ts'),
    path.join(dir, 'scripts/postgres/embedded.ts'),
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(path.join(ROOT, 'node_modules/pg'), path.join(dir, 'node_modules/pg'));
  const pkg = path.join(dir, 'node_modules', BINARIES_PACKAGE);
  fs.mkdirSync(path.dirname(pkg), { recursive: true });
  binaries(pkg);
  return dir;
}

interface Outcome {
  one?: number;
  binaries?: string;
  /** The running postmaster's program. */
  exe?: string;
  error?: string;
}

/**
 * Starts a cluster from `dir`, runs SELECT 1 and stops it, in a child process that carries on for a while
 * afterwards (an unhandled 'error' event would end it first): the outcome, the exit code and stderr.
 */
async function startFrom(dir: string): Promise<{ outcome: Outcome; code: number | null; stderr: string }> {
  const code = `
    import fs from 'node:fs';
    import { startEmbeddedPostgres } from ${JSON.stringify(path.join(dir, 'scripts/postgres/embedded.ts'))};
    try {
      const c = await startEmbeddedPostgres({ durability: 'throwaway' });
      const { rows } = await c.admin.query('SELECT 1 AS one');
      const exe = fs.realpathSync('/proc/' + c.pid + '/exe');
      await c.stop();
      console.log(JSON.stringify({ one: rows[0].one, binaries: c.binaries, exe }));
    } catch (err) {
      console.log(JSON.stringify({ error: err.message }));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.log('still here');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(out, err).toMatch(/\nstill here\n$/);
  const line = out.split('\n').find((l) => l.startsWith('{')) ?? '{}';
  return { outcome: JSON.parse(line) as Outcome, code: exit, stderr: err };
}

describe('the embedded PostgreSQL started from a checkout in a 0700 folder', () => {
  it('starts, answers and stops, its programs run from where PostgreSQL can reach them', async () => {
    const dir = checkout((pkg) =>
      fs.cpSync(path.join(ROOT, 'node_modules', BINARIES_PACKAGE), pkg, {
        recursive: true,
        verbatimSymlinks: true,
      }),
    );
    const { outcome, code, stderr } = await startFrom(dir);
    expect(outcome, stderr).toMatchObject({ one: 1 });
    expect(code).toBe(0);
    expect(outcome.exe).toBe(path.join(outcome.binaries ?? '', 'bin/postgres'));
    if (root) {
      // The copy under /tmp, anyone's to read and enter; not the checkout's.
      expect(outcome.binaries).toMatch(/^\/tmp\/torre-pg-[^/]+$/);
      expect(fs.statSync(outcome.binaries ?? '').mode & 0o777).toBe(0o755);
      expect(fs.statSync(path.join(outcome.binaries ?? '', 'bin/postgres')).mode & 0o777).toBe(0o755);
    } else {
      expect(outcome.binaries).toBe(path.join(dir, 'node_modules', BINARIES_PACKAGE, 'native'));
    }
  }, 120_000);

  it('that cannot start rejects with one line saying which program failed and why, and the process goes on', async () => {
    // A PostgreSQL package without initdb, of a version of its own (its copy under /tmp is this test's).
    const version = `0.0.0-torre-test.${crypto.randomBytes(4).toString('hex')}`;
    const dir = checkout((pkg) => {
      fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
      fs.mkdirSync(path.join(pkg, 'native/bin'), { recursive: true });
      fs.writeFileSync(path.join(pkg, 'native/bin/postgres'), '', { mode: 0o755 });
      fs.writeFileSync(path.join(pkg, 'dist/index.js'), '');
      fs.writeFileSync(
        path.join(pkg, 'package.json'),
        JSON.stringify({ name: BINARIES_PACKAGE, version, type: 'module', exports: './dist/index.js' }),
      );
    });
    const copy = `/tmp/torre-pg-${version}-${process.platform}-${process.arch}`;
    copies.add(copy);

    const first = await startFrom(dir);
    expect(first.code).toBe(0);
    expect(first.outcome.error).toMatch(
      /^PostgreSQL's initdb could not be run( as the postgres OS user)?: spawn \/\S+\/bin\/initdb ENOENT$/,
    );
    if (!root) return;
    // As root the programs were copied, once: the next start reuses the copy while it is intact…
    expect(first.outcome.error).toContain(`${copy}/bin/initdb`);
    const made = fs.statSync(copy).ino;
    expect((await startFrom(dir)).outcome.error).toBe(first.outcome.error);
    expect(fs.statSync(copy).ino).toBe(made);
    // …and replaces it when it is not.
    fs.writeFileSync(path.join(copy, 'bin/initdb'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect((await startFrom(dir)).outcome.error).toBe(first.outcome.error);
    expect(fs.statSync(copy).ino).not.toBe(made);
    expect(fs.existsSync(path.join(copy, 'bin/initdb'))).toBe(false);
  }, 120_000);
});
