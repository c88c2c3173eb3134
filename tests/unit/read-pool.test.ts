// The read threads of SQLite (server/db/read-pool.ts), with a thread module of the test's own
// (tests/helpers/read-thread.ts): reads run side by side, see what the server committed, never write,
// and end with the database they were bound to.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeDb, openDb, runMigrations } from '../../server/db';
import { READ_THREADS, ReadPool, ReadThreadError } from '../../server/db/read-pool';
import { freshDbFile, makeUser } from '../helpers/context';
import type { ReadThreadJob } from '../helpers/read-thread';

const pool = new ReadPool(new URL('../helpers/read-thread.ts', import.meta.url).href, READ_THREADS);
const run = (job: ReadThreadJob) => pool.run(job);

let file: string;
beforeAll(() => {
  file = freshDbFile();
  openDb(file);
  runMigrations();
  pool.bind(file);
});
afterAll(() => {
  pool.bind(undefined);
  closeDb();
});

it('runs two reads at once: each holds its thread until the other has started', async () => {
  // With one thread at a time the first would wait for a second that cannot start: false after 10 s.
  const flags = new SharedArrayBuffer(8);
  const met = await Promise.all([
    run({ kind: 'meet', flags, mine: 0, other: 1 }),
    run({ kind: 'meet', flags, mine: 1, other: 0 }),
  ]);
  expect(met).toEqual([true, true]);
}, 30_000);

it('queues the reads beyond its threads and answers each', async () => {
  const counts = await Promise.all(
    Array.from({ length: 3 * READ_THREADS }, () => run({ kind: 'count-users' })),
  );
  expect(new Set(counts).size).toBe(1);
});

it('reads what the server has committed, and refuses to write', async () => {
  const before = (await run({ kind: 'count-users' })) as number;
  await makeUser('gestor');
  expect(await run({ kind: 'count-users' })).toBe(before + 1);
  const refused = await run({ kind: 'write' }).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ReadThreadError);
  expect((refused as Error).message).toBe('a read thread never writes');
  expect(await run({ kind: 'count-users' })).toBe(before + 1);
});

it('once its database is closed, runs nothing until bound again', async () => {
  pool.bind(undefined);
  expect(pool.available).toBe(false);
  await expect(run({ kind: 'count-users' })).rejects.toThrow('database not open');
  pool.bind(file);
  expect(await run({ kind: 'count-users' })).toBeGreaterThan(0);
});
