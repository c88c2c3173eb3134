// An example API client (docs/INTEGRATION.md): creates the tasks of a CSV through the API with a key, and
// says per line whether it created the task, found it already (the same `external_ref` of an open task:
// 200) or was refused (the server's Spanish `detail`). Sending a file twice creates nothing twice.
//
//   TORRE_API_KEY=trc_… TORRE_URL=https://torre.example.com npx tsx scripts/import-tasks-csv.ts moves.csv
//
// Columns (header row, `,` or `;`): title, origin, destination, trailer_id, priority, vehicle_type, due_at,
// external_ref. Empty cells are left out (the server's defaults apply).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { csvDelimiter, decodeCsvFile } from '@shared/csv';

export const CSV_COLUMNS = [
  'title',
  'origin',
  'destination',
  'trailer_id',
  'priority',
  'vehicle_type',
  'due_at',
  'external_ref',
] as const;

export type LineOutcome = 'created' | 'existing' | 'refused';
export interface LineResult {
  /** The line of the file (the header is line 1). */
  line: number;
  outcome: LineOutcome;
  /** The task's id, or why it was refused. */
  text: string;
}

/** The API's answer to one create. */
export type CreateTask = (body: Record<string, string>) => Promise<{ status: number; body: unknown }>;

/** POST /api/tasks with a key (or any bearer token) against a base URL. */
export function httpCreateTask(baseUrl: string, token: string): CreateTask {
  return async (body) => {
    const res = await fetch(new URL('/api/tasks', baseUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
}

/** The rows of the CSV as request bodies, each with its line number. */
export function csvTasks(csv: string): { line: number; body: Record<string, string> }[] {
  const rows = parse(csv, {
    delimiter: csvDelimiter(csv),
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true,
  }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  const [header, ...lines] = rows;
  const columns = header?.record.map((h) => h.toLowerCase()) ?? [];
  const unknown = columns.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown.length)
    throw new Error(`Columnas desconocidas: ${unknown.join(', ')} (admitidas: ${CSV_COLUMNS.join(', ')})`);
  return lines.map(({ record, info }) => ({
    line: info.lines,
    body: Object.fromEntries(columns.flatMap((c, i) => (record[i] ? [[c, record[i]]] : []))),
  }));
}

/** Creates the tasks one after another (the API keeps their order) and reports each line. */
export async function importTasksCsv(csv: string, create: CreateTask): Promise<LineResult[]> {
  const results: LineResult[] = [];
  for (const { line, body } of csvTasks(csv)) {
    const res = await create(body);
    const answer = res.body as { id?: string; detail?: string } | null;
    if (res.status === 201 || res.status === 200) {
      results.push({ line, outcome: res.status === 201 ? 'created' : 'existing', text: answer?.id ?? '' });
    } else {
      results.push({ line, outcome: 'refused', text: answer?.detail ?? `HTTP ${res.status}` });
    }
  }
  return results;
}

const OUTCOME_TEXT: Record<LineOutcome, string> = {
  created: 'creada',
  existing: 'ya existía',
  refused: 'rechazada',
};

async function main(): Promise<void> {
  const [file] = process.argv.slice(2);
  const key = process.env.TORRE_API_KEY;
  const baseUrl = process.env.TORRE_URL ?? 'http://localhost:3000';
  if (!file || !key) {
    console.error('Uso: TORRE_API_KEY=trc_… [TORRE_URL=…] npx tsx scripts/import-tasks-csv.ts tareas.csv');
    process.exit(2);
  }
  const results = await importTasksCsv(decodeCsvFile(fs.readFileSync(file)), httpCreateTask(baseUrl, key));
  for (const r of results) console.log(`línea ${r.line}: ${OUTCOME_TEXT[r.outcome]} ${r.text}`);
  const count = (o: LineOutcome) => results.filter((r) => r.outcome === o).length;
  console.log(
    `${count('created')} creadas, ${count('existing')} ya existían, ${count('refused')} rechazadas`,
  );
  if (count('refused')) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
