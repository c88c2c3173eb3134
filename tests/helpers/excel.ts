// Excel downloads in API tests: the response read as bytes and parsed back with exceljs.
import ExcelJS from 'exceljs';
import type { Response } from 'superagent';
import type { Test } from 'supertest';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** Sends the request, reads the body as bytes and parses it as a workbook (null when it is not 200). */
export async function fetchWorkbook(req: Test): Promise<{ res: Response; wb: ExcelJS.Workbook | null }> {
  const res = await req.buffer(true).parse(binary);
  if (res.status !== 200) return { res, wb: null };
  const wb = new ExcelJS.Workbook();
  // exceljs types its input as an ArrayBuffer-like Buffer of its own; node's Buffer is what it reads.
  await wb.xlsx.load(res.body as Parameters<typeof wb.xlsx.load>[0]);
  return { res, wb };
}

/** A sheet's rows as plain values: the header row and the rest. */
export function sheetTable(ws: ExcelJS.Worksheet): { header: unknown[]; rows: unknown[][] } {
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { header: rows[0] ?? [], rows: rows.slice(1) };
}
