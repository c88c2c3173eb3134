// `npm run bench -- --smoke` runs every section of the bench with tiny sizes, so the bench cannot rot.
// Here on both engines (--engine both; the smoke run's default is SQLite alone): the PostgreSQL half
// starts a cluster from the npm registry, runs every section over it and removes it (about 45 s). Only
// the shape is checked (a row for every measure on each engine, the doc block written with the engines
// side by side, nothing left behind), never a timing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { markers, type EngineRun, type Section } from '../../scripts/bench/report';

const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-bench-smoke-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runSmoke(args: string[]): Promise<{ code: number | null; output: string; pid: number | undefined }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/index.ts', '--smoke', ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output, pid: child.pid }));
  });
}

/** Every section of one engine's run, with the rows each must have. */
function checkSections(sections: Section[]): void {
  const section = (prefix: string) => {
    const found = sections.find((s) => s.name.startsWith(prefix));
    expect(found, `section ${prefix}`).toBeDefined();
    return found!;
  };
  const measures = (prefix: string) => section(prefix).rows.map((r) => r.measure);
  // Every row carries a result; rows with a budget say whether it was met.
  for (const s of sections)
    for (const r of s.rows) {
      expect(r.result, `${s.name}: ${r.measure}`).toMatch(/\d/);
      expect(r.result, `${s.name}: ${r.measure}`).not.toMatch(/^failed/);
      if (r.budget) expect(typeof r.ok).toBe('boolean');
    }

  expect(measures('Push fan-out')).toEqual(
    expect.arrayContaining([
      expect.stringContaining('last socket'),
      expect.stringContaining('HTTP answer'),
      expect.stringContaining('bare Socket.IO broadcast'),
      'fan-out ÷ bare broadcast, p99',
    ]),
  );
  expect(measures('Memory')).toEqual(expect.arrayContaining([expect.stringContaining('sockets connected')]));
  expect(measures('REST')).toEqual([
    'GET /api/dashboard/stats',
    expect.stringContaining('GET /api/tasks'),
    expect.stringContaining('search'),
    expect.stringContaining('report deficiencies, 24h'),
    expect.stringContaining('report deficiencies, day'),
    expect.stringContaining('report delayed-assignments, 24h'),
    expect.stringContaining('report delayed-assignments, day'),
    'GET /api/admin/indicators, 30 days',
    'GET /api/admin/indicators, 92 days',
  ]);
  expect(measures('Reads side by side')).toEqual([
    'search, 16 concurrent clients',
    'GET /api/dashboard/stats while 16 searches run',
  ]);
  expect(measures('Yard with')).toEqual([
    expect.stringContaining('places, trailers standing'),
    'GET /api/yard (the map)',
    'GET /api/yard/trailers (the list)',
    expect.stringContaining('GET /api/trailers/{id}'),
  ]);
  expect(section('Yard with').rows[0]!.result).toMatch(/^[\d,]+ places, [1-9][\d,]* trailers$/);
  expect(measures('Writes')[0]).toContain('tasks created per second');
  expect(measures('Gate entries')).toEqual([
    'POST /gate/entries: visits opened per second, failed requests',
    'POST /gate/entries latency p50 / p99',
  ]);
  expect(measures('Other systems')).toEqual([
    expect.stringContaining('through an API key, a webhook on every event'),
    expect.stringContaining("the flood's events delivered"),
    expect.stringContaining('webhook delivery lag'),
  ]);
  expect(measures('Push vs SPEC polling')).toEqual([
    expect.stringContaining('server CPU, polling / push'),
    expect.stringContaining('a bare Socket.IO broadcast of the same changes'),
    expect.stringContaining('HTTP requests'),
    expect.stringContaining('staleness'),
  ]);
  expect(section('Push vs SPEC polling').details).toContain('(a) SPEC §9 polling');
  expect(section('Push vs SPEC polling').details).toContain('| (c) a bare Socket.IO broadcast |');
  expect(measures('Client')).toEqual(
    expect.arrayContaining([
      expect.stringContaining('initial JavaScript'),
      expect.stringContaining('cards in the DOM'),
    ]),
  );
}

it('the smoke run measures every section on both engines and writes their table', async () => {
  const json = path.join(dir, 'bench.json');
  const out = path.join(dir, 'PERFORMANCE.md');
  fs.writeFileSync(out, '# Performance\n\nHand-written text that must survive.\n');
  const { code, output, pid } = await runSmoke(['--engine', 'both', '--json', json, '--out', out]);
  expect(code, output).toBe(0);

  const { mode, runs } = JSON.parse(fs.readFileSync(json, 'utf8')) as { mode: string; runs: EngineRun[] };
  expect(mode).toBe('smoke');
  expect(runs.map((r) => [r.engine, r.errors])).toEqual([
    ['sqlite', []],
    ['postgres', []],
  ]);
  for (const run of runs) checkSections(run.sections);
  // Same rows on both engines (the side-by-side table has no holes).
  const rows = (run: EngineRun) => run.sections.flatMap((s) => s.rows.map((r) => `${s.name}: ${r.measure}`));
  expect(rows(runs[1])).toEqual(rows(runs[0]));

  const doc = fs.readFileSync(out, 'utf8');
  expect(doc).toContain('Hand-written text that must survive.');
  expect(doc).toContain(markers('bench').begin);
  expect(doc).toContain(markers('bench').end);
  expect(doc).toMatch(
    /\|\s*Section\s*\|\s*Measure\s*\|\s*SQLite\s*\|\s*Budget\s*\|\s*\|\s*PostgreSQL\s*\|\s*Budget\s*\|\s*\|\n/,
  );
  expect(doc).toContain('Machine: ');
  expect(doc).toMatch(/PostgreSQL: \d+(\.\d+)? from the npm registry .*synchronous_commit = off/);
  // The bench's PostgreSQL cluster and temporary folders are gone.
  const left = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`torre-bench-pg-${pid}-`));
  expect(left).toEqual([]);
}, 600_000);

it('the cluster smoke run measures two nodes on PostgreSQL and writes its own block', async () => {
  const json = path.join(dir, 'cluster.json');
  const out = path.join(dir, 'PERFORMANCE-cluster.md');
  fs.writeFileSync(
    out,
    `# Performance\n\n${markers('bench').begin}\n\nThe full run's table.\n\n${markers('bench').end}\n`,
  );
  const { code, output } = await runSmoke(['--cluster', '--json', json, '--out', out]);
  expect(code, output).toBe(0);
  const { runs } = JSON.parse(fs.readFileSync(json, 'utf8')) as { runs: EngineRun[] };
  expect(runs.map((r) => [r.engine, r.errors])).toEqual([['postgres', []]]);
  const [section] = runs[0]!.sections;
  expect(section!.name).toMatch(/^Many nodes \(2 nodes on one PostgreSQL/);
  expect(section!.rows.map((r) => [r.measure.slice(0, 24), typeof r.ok])).toEqual([
    ['PUT through the proxy → ', 'boolean'],
    ['SIGKILL of node 1 → ever', 'boolean'],
    ['screens’ failed requests', 'undefined'],
  ]);
  const doc = fs.readFileSync(out, 'utf8');
  // Its block is added beside the full run's, which stays as it was.
  expect(doc).toContain("The full run's table.");
  expect(doc).toContain(markers('bench-cluster').begin);
  expect(doc).toContain('Many nodes (2 nodes');
}, 300_000);
