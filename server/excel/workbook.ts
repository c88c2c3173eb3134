// The one way the server writes a table into an xlsx (CONTRACT §8): Spanish headers in bold, the
// header row frozen, an auto-filter over the table, widths from the content, and dates as real Excel
// dates showing Madrid wall time (Excel has no time zones: the serial is the Madrid clock reading).
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import { APP_TITLE } from '@shared/labels';
import { madridOffsetMs } from '@shared/time';
import { now } from '../clock';

export type CellKind = 'text' | 'integer' | 'decimal' | 'minutes' | 'date' | 'datetime';

export interface SheetColumn<R> {
  header: string;
  kind: CellKind;
  value: (row: R) => string | number | null;
}

const NUM_FMT: Partial<Record<CellKind, string>> = {
  integer: '0',
  decimal: '0.00',
  minutes: '0.0',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
};
/** Widths (characters) of the columns whose text Excel formats itself. */
const FIXED_WIDTH: Partial<Record<CellKind, number>> = { date: 12, datetime: 17 };
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

/** An instant as an Excel date reading Madrid wall time; null stays an empty cell. */
export function madridExcelDate(at: number | string | null): Date | null {
  if (at === null) return null;
  const ms = typeof at === 'string' ? Date.parse(at) : at;
  return new Date(ms + madridOffsetMs(ms));
}

export function newWorkbook(): ExcelJS.Workbook {
  const wb = new ExcelJS.Workbook();
  wb.creator = APP_TITLE;
  wb.created = now();
  return wb;
}

/** A sheet holding one table: header row, one row per item, styled the same way everywhere. */
export function addTableSheet<R>(
  wb: ExcelJS.Workbook,
  name: string,
  columns: SheetColumn<R>[],
  rows: R[],
): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2' }] });
  const values = rows.map((row) => columns.map((c) => c.value(row)));
  ws.addRow(columns.map((c) => c.header));
  for (const v of values)
    ws.addRow(
      v.map((x, i) =>
        x !== null && (columns[i].kind === 'date' || columns[i].kind === 'datetime') ? madridExcelDate(x) : x,
      ),
    );

  columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1);
    const fmt = NUM_FMT[c.kind];
    if (fmt) col.numFmt = fmt;
    const longest =
      FIXED_WIDTH[c.kind] ?? values.reduce((max, v) => Math.max(max, String(v[i] ?? '').length), 0);
    col.width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, c.header.length, longest) + 2);
  });

  const header = ws.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE2E8F0' } };
  header.alignment = { vertical: 'middle' };
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: rows.length + 1, column: columns.length } };
  return ws;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The workbook's xlsx file. */
export async function workbookBytes(wb: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** Answers with an xlsx file as a download named `fileName` (ASCII: built from validated dates). */
export function sendXlsx(res: Response, bytes: Uint8Array, fileName: string): void {
  res.setHeader('Content-Type', XLSX_TYPE);
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
