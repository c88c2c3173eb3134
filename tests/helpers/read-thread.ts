// A read thread for tests/unit/read-pool.test.ts (server/db/read-pool.ts): jobs that hold their thread as
// a long statement does, read the pool's database, or try to write to it.
import { serveReadThread } from '../../server/db/read-pool';
import { execute, query, tx } from '../../server/db';

export type ReadThreadJob =
  /** Marks `mine` in `flags`, then blocks its thread until `other` is marked: true if it was, within 10 s. */
  | { kind: 'meet'; flags: SharedArrayBuffer; mine: number; other: number }
  | { kind: 'count-users' }
  | { kind: 'write' };

serveReadThread(async (payload) => {
  const job = payload as ReadThreadJob;
  if (job.kind === 'meet') {
    const flags = new Int32Array(job.flags);
    Atomics.store(flags, job.mine, 1);
    Atomics.notify(flags, job.mine);
    return { reply: Atomics.wait(flags, job.other, 0, 10_000) !== 'timed-out', transfer: [] };
  }
  if (job.kind === 'count-users') {
    const [{ n }] = await query<{ n: number }>('SELECT count(*) AS n FROM users');
    return { reply: n, transfer: [] };
  }
  await tx(() => execute('DELETE FROM users'));
  return { reply: 'written', transfer: [] };
});
