// What a node keeps computed from the database (the figures, the shared answers) is served while nothing
// has committed since, and computed again after any commit (db/change-mark.ts, CONTRACT §23). The reads
// through another node are tests/process/reads-after-writes.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { commitCount, isPostgres, query } from '../../server/db';
import { SNAPSHOT_COLUMN, unchangedSince, withRequestMark } from '../../server/db/change-mark';
import { dashboardStats } from '../../server/services/dashboard';
import { sharedAnswer } from '../../server/services/shared-answers';
import { makeTask, makeUser, setupApp } from '../helpers/context';
import { messagesOf } from '../helpers/pg-messages';

beforeEach(async () => {
  await setupApp();
});

describe('PostgreSQL snapshots as change marks', () => {
  const mark = (xmax: number, running: number[]) => ({ xmax: BigInt(xmax), running: new Set(running.map(BigInt)) });

  it('nothing committed: every id running then, and every id handed out since, still runs', () => {
    expect(unchangedSince(mark(10, [8]), mark(10, [8]))).toBe(true);
    expect(unchangedSince(mark(10, [8]), mark(12, [8, 10, 11]))).toBe(true);
  });

  it('a commit: an id running then, or handed out since, runs no more', () => {
    expect(unchangedSince(mark(10, [8]), mark(10, []))).toBe(false);
    expect(unchangedSince(mark(10, [8]), mark(12, [8, 11]))).toBe(false);
    expect(unchangedSince(mark(10, []), mark(11, []))).toBe(false);
  });
}); // prettier-ignore

describe('kept between two commits, computed again after one', () => {
  it('the figures', async () => {
    // The first reading of a database keeps the alert's status (a commit of its own).
    await dashboardStats(true);
    const first = await dashboardStats(true);
    expect(await dashboardStats(true)).toBe(first);
    await makeTask();
    const next = await dashboardStats(true);
    expect(next).not.toBe(first);
    expect(next.bolsa_trabajo).toBe(first.bolsa_trabajo + 1);
  });

  it('a shared answer, at the same version', async () => {
    const compute = vi.fn(async () => ({ n: compute.mock.calls.length }));
    const answer = () => sharedAnswer('change-mark-test', 'v1', compute).body();
    expect(await answer()).toBe('{"n":1}');
    expect(await answer()).toBe('{"n":1}');
    expect(compute).toHaveBeenCalledTimes(1);
    await makeTask();
    expect(await answer()).toBe('{"n":2}');
    expect(compute).toHaveBeenCalledTimes(2);
  });
});

describe("a request's mark: the snapshot its authentication took along (PostgreSQL)", () => {
  it('checks the kept figures without a read of its own, and reads again once this process has committed', async () => {
    const { api } = await setupApp();
    const admin = await makeUser('admin');
    const stats = () => api().get('/api/dashboard/stats').set(admin.auth);
    // The first reading keeps the alert's status (a commit of its own); the second keeps figures.
    for (let i = 0; i < 2; i++) expect((await stats()).status).toBe(200);
    let seen: { bolsa_trabajo: number } | undefined;
    const sent = await messagesOf(async () => {
      const res = await stats();
      expect(res.status).toBe(200);
      seen = res.body;
    });
    // SQLite counts its commits in-process; PostgreSQL: the authentication's read only.
    expect(sent).toHaveLength(isPostgres ? 1 : 0);
    if (isPostgres) expect(sent[0]).toContain('pg_current_snapshot()');

    // Taken before a write of this process: not used after it, so the write is seen.
    const mark = isPostgres
      ? {
          snapshot: (await query<{ snapshot: string }>(`SELECT ${SNAPSHOT_COLUMN}`))[0]!.snapshot,
          commits: commitCount(),
        }
      : undefined;
    await makeTask();
    const after = await withRequestMark(mark, () => dashboardStats(true));
    expect(after.bolsa_trabajo).toBe(seen!.bolsa_trabajo + 1);
  });
});
