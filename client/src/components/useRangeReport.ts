// A range report's view state (stores/range-report.ts): the range, the answer of that range once it came,
// and the range's problem said without asking the server (which says the same). Loads on every new
// valid range.
import { useEffect } from 'react';
import type { z } from 'zod';
import { zodDetail } from '@shared/schemas';
import type { DayRange } from '@shared/periods';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { RangeReportState } from '../stores/range-report';
import { toastError } from '../toast';

export function useRangeReport<R extends { period: DayRange }>(
  useReport: UseBoundStore<StoreApi<RangeReportState<R>>>,
  load: () => Promise<void>,
  query: z.ZodType,
  loadError: string,
) {
  const from = useReport((s) => s.from);
  const to = useReport((s) => s.to);
  const report = useReport((s) => s.report);
  const failed = useReport((s) => s.failed);
  const loading = useReport((s) => s.loading);
  const parsed = query.safeParse({ from, to });
  const problem = parsed.success ? null : zodDetail(parsed.error);

  useEffect(() => {
    if (problem) return;
    load().catch((err: unknown) => toastError(err, loadError));
  }, [from, to, problem, load, loadError]);

  // An answer of an earlier range is not shown as this one's.
  const shown = report && report.period.from === from && report.period.to === to ? report : null;
  return { from, to, shown, failed, loading, problem };
}
