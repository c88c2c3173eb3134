// The bench's results: rows per section, the table printed and written to docs/PERFORMANCE.md between
// markers (the prose around them, written by hand, is kept).
import fs from 'node:fs';
import os from 'node:os';
import prettier from 'prettier';

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

export const BEGIN = '<!-- bench:begin (written by `npm run bench`; edit the text outside the markers) -->';
export const END = '<!-- bench:end -->';

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

export function renderTable(sections: Section[]): string {
  const lines = ['| Section | Measure | Result | Budget | |', '| --- | --- | ---: | --- | :-: |'];
  for (const s of sections)
    for (const r of s.rows)
      lines.push(
        `| ${cell(s.name)} | ${cell(r.measure)} | ${cell(r.result)} | ${cell(r.budget ?? '')} | ${
          r.ok === undefined ? '' : r.ok ? 'ok' : '**MISSED**'
        } |`,
      );
  return lines.join('\n');
}

export function renderResults(
  sections: Section[],
  meta: { date: Date; mode: string; seconds: number },
): string {
  const details = sections.filter((s) => s.details).map((s) => `#### ${s.name}\n\n${s.details}`);
  return [
    `Run of ${meta.date.toISOString().slice(0, 16).replace('T', ' ')} UTC (${meta.mode}, ${meta.seconds.toFixed(0)} s).`,
    '',
    `Machine: ${machine()}.`,
    '',
    renderTable(sections),
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
export async function writeResults(file: string, results: string, template: string): Promise<void> {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : template;
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  const block = `${BEGIN}\n\n${results}\n\n${END}`;
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + block + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
}
