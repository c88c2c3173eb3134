// What a node keeps computed from the database (the figures, the shared answers) is served while nothing
// has committed since, and computed again after any commit (db/change-mark.ts, CONTRACT §23). The reads
// through another node are tests/process/reads-after-writes.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unchangedSince } from '../../server/db/change-mark';
import { dashboardStats } from '../../server/services/dashboard';
import { sharedAnswer } from '../../server/services/shared-answers';
import { makeTask, setupApp } from '../helpers/context';

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
