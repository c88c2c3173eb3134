// The reads that take tens of milliseconds or more (issue 31): the searcher, the reports, the indicators,
// the handover and the Excel exports. They run on the read threads (server/db/read-pool.ts),
// which load this same module: each read has one definition, the service's own. Their answer is encoded
// where it was computed (JSON text, or the xlsx file), so the event loop only sends bytes.
import etag from 'etag';
import type ExcelJS from 'exceljs';
import {
  EXPORT_FILE_NAMES,
  HANDOVER_EXCEL,
  INDICATORS_EXCEL,
  TRUCK_STAYS_EXCEL,
  YARD_EXCEL,
} from '@shared/labels';
import type { DateRangeQuery, HandoverQuery, IndicatorsQuery, TruckStaysQuery } from '@shared/schemas';
import { madridDay } from '@shared/time';
import { clockOffsetMs, nowMs } from '../clock';
import { config, type Config } from '../config';
import { ReadThreadError, readThreads } from '../db/read-pool';
import { HttpError } from '../http/errors';
import { searchTasks } from '../services/search';
import { deficienciesReport, delayedAssignmentsReport } from '../services/reports';
import { truckStays } from '../services/gate';
import { indicators } from '../services/indicators';
import { handoverReport } from '../services/handover';
import { workbookBytes } from '../excel/workbook';
import { handoverWorkbook } from '../excel/handover';
import { indicatorsWorkbook } from '../excel/indicators';
import { timeclockWorkbook } from '../excel/timeclock';
import { analyticsWorkbook } from '../excel/analytics';
import { truckStaysWorkbook } from '../excel/truck-stays';
import { yardTrailersWorkbook } from '../excel/yard';

/** What a long read answers: a JSON body, or an xlsx download. */
type LongAnswer = { json: unknown } | { workbook: ExcelJS.Workbook; fileName: string };

/**
 * The answer as bytes, ready to send; JSON with the ETag Express would give those bytes (its default weak
 * one: a SHA-1 of a search's ~800 KB costs the main thread ~1 ms, here it costs a read thread).
 */
export type EncodedAnswer =
  { kind: 'json'; body: Uint8Array; etag: string } | { kind: 'xlsx'; body: Uint8Array; fileName: string };

const json =
  <A, R>(read: (args: A) => Promise<R>) =>
  async (args: A): Promise<LongAnswer> => ({ json: await read(args) });

export const LONG_READS = {
  search: json(searchTasks),
  deficiencies: json(deficienciesReport),
  delayedAssignments: json(delayedAssignmentsReport),
  truckStays: json(truckStays),
  indicators: json(indicators),
  handover: json(handoverReport),
  handoverExcel: async (q: HandoverQuery) => {
    const report = await handoverReport(q);
    return {
      workbook: handoverWorkbook(report),
      fileName: HANDOVER_EXCEL.fileName(report.date, report.shift),
    };
  },
  indicatorsExcel: async (q: IndicatorsQuery) => {
    const report = await indicators(q);
    return {
      workbook: indicatorsWorkbook(report),
      fileName: INDICATORS_EXCEL.fileName(report.period.from, report.period.to),
    };
  },
  timeclockExcel: async ({ date_from, date_to }: DateRangeQuery) => ({
    workbook: await timeclockWorkbook(date_from, date_to),
    fileName: EXPORT_FILE_NAMES.timeclock(date_from, date_to),
  }),
  analyticsExcel: async ({ date_from, date_to }: DateRangeQuery) => ({
    workbook: await analyticsWorkbook(date_from, date_to),
    fileName: EXPORT_FILE_NAMES.analytics(date_from, date_to),
  }),
  truckStaysExcel: async (q: TruckStaysQuery) => ({
    workbook: await truckStaysWorkbook(q),
    fileName: TRUCK_STAYS_EXCEL.fileName(q.from, q.to),
  }),
  yardExcel: async () => ({
    workbook: await yardTrailersWorkbook(),
    fileName: YARD_EXCEL.fileName(madridDay(nowMs())),
  }),
} satisfies Record<string, (args: never) => Promise<LongAnswer>>;

export type LongReadName = keyof typeof LONG_READS;
export type LongReadArgs<N extends LongReadName> = Parameters<(typeof LONG_READS)[N]>[0];

/** A job of a read thread: the read, its arguments, and the server's clock and configuration. */
export interface LongReadJob {
  read: LongReadName;
  args: unknown;
  clockOffsetMs: number;
  config: Config;
}

/** Runs the read (in this thread) and encodes its answer: JSON as res.json() writes it, or the xlsx file. */
export async function runHere(read: LongReadName, args: unknown): Promise<EncodedAnswer> {
  const answer = await (LONG_READS[read] as (args: unknown) => Promise<LongAnswer>)(args);
  if ('json' in answer) {
    // Its own ArrayBuffer (never Buffer's shared pool): the thread hands it over without a copy.
    const body = new TextEncoder().encode(JSON.stringify(answer.json));
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { kind: 'json', body, etag: etag(bytes, { weak: true }) };
  }
  return { kind: 'xlsx', body: await workbookBytes(answer.workbook), fileName: answer.fileName };
}

/** Runs a long read on a read thread (while one serves the database), else here; resolves with its encoded answer. */
export async function runLongRead<N extends LongReadName>(
  read: N,
  args: LongReadArgs<N>,
): Promise<EncodedAnswer> {
  if (!readThreads.available) return runHere(read, args);
  const job: LongReadJob = { read, args, clockOffsetMs: clockOffsetMs(), config };
  try {
    return (await readThreads.run(job)) as EncodedAnswer;
  } catch (err) {
    // A refusal keeps its status and Spanish detail (CONTRACT §3), as when the read runs inline.
    if (err instanceof ReadThreadError && err.status !== undefined && err.detail !== undefined)
      throw new HttpError(err.status, err.detail);
    throw err;
  }
}
