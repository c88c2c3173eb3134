// A range report's store (stores/range-report.ts): only the latest answer is kept, a session's end drops
// the range and any answer still in flight, an empty typed day keeps the last one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/http';
import { createRangeReport, defaultRange } from './range-report';
import { resetSessionStores } from './session-end';

interface Answer {
  period: { from: string; to: string };
}
const report = createRangeReport<Answer, { chosen: string }>({
  path: '/admin/some-report',
  fileName: (from, to) => `x_${from}_${to}.xlsx`,
  extra: { chosen: 'a' },
});

afterEach(() => vi.unstubAllGlobals());

/** A fetch whose answers are released by the test, in the order it wants. */
function heldAnswers() {
  const pending: { from: string; release: () => void }[] = [];
  const fetch = mockFetch(
    (_path) =>
      new Promise<Response>((resolve) => {
        const q = new URL(String(fetch.mock.calls.at(-1)?.[0]), 'http://localhost').searchParams;
        const period = { from: q.get('from')!, to: q.get('to')! };
        pending.push({ from: period.from, release: () => resolve(json(200, { period })) });
      }),
  );
  return { fetch, pending };
}

describe('createRangeReport', () => {
  it('keeps only the latest answer when an older one arrives after it', async () => {
    const { fetch, pending } = heldAnswers();
    report.setRange({ from: '2026-11-01', to: '2026-11-07' });
    const first = report.load();
    report.setRange({ from: '2026-11-08', to: '2026-11-14' });
    const second = report.load();
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    expect(String(fetch.mock.calls[1]![0])).toContain('/api/admin/some-report?from=2026-11-08&to=2026-11-14');
    pending[1]!.release();
    await second;
    pending[0]!.release();
    await first;
    const state = report.useReport.getState();
    expect(state.report?.period.from).toBe('2026-11-08');
    expect(state.loading).toBe(false);
  });

  it('an empty typed day keeps the last one', () => {
    report.setRange({ from: '2026-10-01', to: '2026-10-02' });
    report.setRange({ from: '' });
    expect(report.useReport.getState()).toMatchObject({ from: '2026-10-01', to: '2026-10-02' });
  });

  it("a session's end resets the range and the extras, and drops the answer still in flight", async () => {
    const { pending } = heldAnswers();
    report.useReport.setState({ chosen: 'b' });
    report.setRange({ from: '2026-09-01', to: '2026-09-05' });
    const inFlight = report.load();
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    resetSessionStores(null);
    pending[0]!.release();
    await inFlight;
    expect(report.useReport.getState()).toMatchObject({ ...defaultRange(), report: null, chosen: 'a' });
  });

  it('a failure is kept as failed and rethrown to the caller', async () => {
    mockFetch(() => json(500, { detail: 'Fallo' }));
    await expect(report.load()).rejects.toThrow();
    expect(report.useReport.getState().failed).toBe(true);
  });
});
