// The bench's results: rows per section and engine, the table (engines side by side) printed and written
// to docs/PERFORMANCE.md between markers (the prose around them, written by hand, is kept).
import fs from 'node:fs';
import os from 'node:os';
import prettier from 'prettier';
import { ENGINE_LABELS, type EngineName } from './sections';

export interface Row {
  measure: string;
  result: string;
  /** The budget in words ("p99 ≤ 50 ms"); absent for figures reported without one. */
  budget?: string;
  ok?: boolean;
}

export interface Section {
  name: string;
  rows: Row[];
  /** Extra markdown shown under the summary table (e.g. the push-vs-polling comparison). */
  details?: string;
}

/** The block a run writes in its file, between its markers: the full run's, or `--cluster`'s. */
export type Block = 'bench' | 'bench-cluster';
export const markers = (block: Block) => ({
  begin: `<!-- ${block}:begin (written by \`npm run bench${block === 'bench' ? '' : ' -- --cluster'}\`; edit the text outside the markers) -->`,
  end: `<!-- ${block}:end -->`,
});

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  return (
    `${cpus.length} × ${model}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ` +
    `Node ${process.version}, ${os.type()} ${os.release()}; load average at the end ${load}`
  );
}

/** One engine's run of the sections (an engine process of the bench). */
export interface EngineRun {
  engine: EngineName;
  seconds: number;
  sections: Section[];
  /** Sections that failed outright, with the error. */
  errors: { section: string; message: string }[];
}

const okCell = (r: Row | undefined) => (r?.ok === undefined ? '' : r.ok ? 'ok' : '**MISSED**');

/**
 * The rows of every run side by side: one line per (section, measure), in the order the runs give them,
 * and per engine its result, its budget and whether it was met.
 */
export function renderTable(runs: EngineRun[]): string {
  const key = (s: Section, r: Row) => `${s.name}\u0000${r.measure}`;
  const lines: { section: string; measure: string; key: string }[] = [];
  const seen = new Set<string>();
  for (const run of runs)
    for (const s of run.sections)
      for (const r of s.rows) {
        const k = key(s, r);
        if (seen.has(k)) continue;
        seen.add(k);
        lines.push({ section: s.name, measure: r.measure, key: k });
      }
  const byKey = runs.map((run) => new Map(run.sections.flatMap((s) => s.rows.map((r) => [key(s, r), r]))));
  const head = ['Section', 'Measure', ...runs.flatMap((run) => [ENGINE_LABELS[run.engine], 'Budget', ''])];
  const align = ['---', '---', ...runs.flatMap(() => ['---:', '---', ':-:'])];
  const out = [`| ${head.join(' | ')} |`, `| ${align.join(' | ')} |`];
  for (const line of lines) {
    const cells = [line.section, line.measure];
    for (const rows of byKey) {
      const r = rows.get(line.key);
      cells.push(r ? r.result : '—', r?.budget ?? '', okCell(r));
    }
    out.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  return out.join('\n');
}

export function renderResults(
  runs: EngineRun[],
  meta: { date: Date; mode: string; seconds: number; postgres?: string },
): string {
  const label = (run: EngineRun) => ENGINE_LABELS[run.engine];
  const details = runs.flatMap((run) =>
    run.sections
      .filter((s) => s.details)
      .map((s) => `#### ${s.name}${runs.length > 1 ? ` — ${label(run)}` : ''}\n\n${s.details}`),
  );
  const times = runs.map((run) => `${label(run)} ${run.seconds.toFixed(0)} s`).join(', ');
  return [
    `Run of ${meta.date.toISOString().slice(0, 16).replace('T', ' ')} UTC (${meta.mode}, ${meta.seconds.toFixed(0)} s: ${times}).`,
    '',
    `Machine: ${machine()}.`,
    ...(meta.postgres ? ['', `PostgreSQL: ${meta.postgres}.`] : []),
    '',
    renderTable(runs),
    '',
    ...details.flatMap((d) => [d, '']),
  ]
    .join('\n')
    .trimEnd();
}

/**
 * Replaces the results between the markers of `file` (created from `template` if needed), formatted by
 * the project's Prettier so `npm run lint` stays green.
 */
export async function writeResults(
  file: string,
  results: string,
  template: string,
  blockName: Block = 'bench',
): Promise<void> {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : template;
  const { begin, end: finish } = markers(blockName);
  const start = current.indexOf(begin);
  const end = current.indexOf(finish);
  const block = `${begin}\n\n${results}\n\n${finish}`;
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + block + current.slice(end + finish.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
}
