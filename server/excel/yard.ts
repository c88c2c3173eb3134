// remolques_en_patio_{day}.xlsx (CONTRACT §17): every trailer standing in the yard, where, since when,
// how long (hours at the moment of the export) and the open task that will move it, if any.
import type ExcelJS from 'exceljs';
import type { YardTrailer } from '@shared/schemas';
import { STATUS_LABELS, YARD_EXCEL } from '@shared/labels';
import { nowMs } from '../clock';
import { yardTrailers } from '../services/yard';
import { trailerMarkColumns } from './trailer-columns';
import { addTableSheet, newWorkbook } from './workbook';

const HOUR_MS = 3_600_000;
const { headers } = YARD_EXCEL;

export async function yardTrailersWorkbook(): Promise<ExcelJS.Workbook> {
  const at = nowMs();
  const wb = newWorkbook();
  addTableSheet<YardTrailer>(
    wb,
    YARD_EXCEL.sheet,
    [
      { header: headers.trailer, kind: 'text', value: (t) => t.trailer_id },
      { header: headers.zone, kind: 'text', value: (t) => t.location.zone },
      { header: headers.location, kind: 'text', value: (t) => t.location.name },
      { header: headers.code, kind: 'text', value: (t) => t.location.code },
      { header: headers.since, kind: 'datetime', value: (t) => t.since },
      {
        header: headers.dwellHours,
        kind: 'decimal',
        value: (t) => Math.max(0, (at - Date.parse(t.since)) / HOUR_MS),
      },
      {
        header: headers.openTask,
        kind: 'text',
        value: (t) => (t.open_task ? `${t.open_task.title} → ${t.open_task.destination}` : null),
      },
      {
        header: headers.openTaskStatus,
        kind: 'text',
        value: (t) => (t.open_task ? STATUS_LABELS[t.open_task.status] : null),
      },
      { header: headers.onHold, kind: 'text', value: (t) => (t.open_task?.on_hold ? YARD_EXCEL.yes : null) },
      ...trailerMarkColumns<YardTrailer>((t) => t.marks),
    ],
    await yardTrailers(),
  );
  return wb;
}
