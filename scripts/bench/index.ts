// `npm run bench`: every performance figure of docs/PERFORMANCE.md, with its budget (issue 9, CONTRACT §9).
// Each section starts its own server as a separate process over its own temporary database.
//
//   npm run bench                        # full sizes (under 5 minutes on 2 cores); writes docs/PERFORMANCE.md
//   npm run bench -- --smoke             # tiny sizes, every section (< 1 minute); writes nothing
//   BENCH_SMOKE=1 npm run bench          # the same
//   npm run bench -- --only fanout,rest  # some sections (fanout, pushpoll, rest, client)
//   npm run bench -- --out FILE --json FILE
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runClient } from './client';
import { runFanout } from './fanout';
import { runPushPoll } from './pushpoll';
import { renderResults, renderTable, writeResults, type Section } from './report';
import { runRest } from './rest';
import { ROOT } from './server';

// Bench accounts and the generated yards hash their passwords cheaply; and the generator, loaded in this
// process, must not create a secret in ./data: both settings reach the servers too, which is harmless.
process.env.BCRYPT_COST ??= '4';
process.env.JWT_SECRET ??= crypto.randomBytes(32).toString('hex');

const SECTIONS = ['client', 'fanout', 'rest', 'pushpoll'] as const;
type SectionName = (typeof SECTIONS)[number];

const SEED = 42;
const SIZES = {
  full: {
    fanout: { clients: 500, updates: 200, threads: 2 },
    pushpoll: { staff: 50, drivers: 50, seconds: 60, changeEveryMs: 1000, threads: 2, seed: SEED },
    rest: {
      tasks: 100_000,
      open: 500,
      seconds: 3,
      writeSeconds: 5,
      writeConnections: 10,
      drivers: 20,
      seed: SEED,
    },
    client: { cards: 300, loads: 5, seed: SEED },
  },
  smoke: {
    fanout: { clients: 10, updates: 5, threads: 1 },
    pushpoll: { staff: 3, drivers: 2, seconds: 2, changeEveryMs: 1000, threads: 1, seed: SEED },
    rest: {
      tasks: 1_000,
      open: 20,
      seconds: 1,
      writeSeconds: 1,
      writeConnections: 4,
      drivers: 2,
      seed: SEED,
    },
    client: { cards: 20, loads: 1, seed: SEED },
  },
};

const TEMPLATE = `# Performance

Figures written by \`npm run bench\` (scripts/bench/).
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: process.env.BENCH_SMOKE === '1' },
      only: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const mode = values.smoke ? 'smoke' : 'full';
  const sizes = SIZES[mode];
  const only = values.only?.split(',').map((s) => s.trim()) ?? [...SECTIONS];
  const unknown = only.filter((s) => !SECTIONS.includes(s as SectionName));
  if (unknown.length)
    throw new Error(`unknown section(s): ${unknown.join(', ')} (use ${SECTIONS.join(', ')})`);
  // The smoke run and partial runs write the doc only when asked to.
  const out =
    values.out ?? (mode === 'full' && only.length === SECTIONS.length ? 'docs/PERFORMANCE.md' : undefined);

  const started = performance.now();
  const log = (line: string) =>
    console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);
  const run: Record<SectionName, () => Promise<Section[]>> = {
    client: () => runClient(sizes.client, log),
    fanout: () => runFanout(sizes.fanout, log),
    rest: () => runRest(sizes.rest, log),
    pushpoll: () => runPushPoll(sizes.pushpoll, log),
  };
  const sections: Section[] = [];
  for (const name of SECTIONS) if (only.includes(name)) sections.push(...(await run[name]()));
  const seconds = (performance.now() - started) / 1000;

  console.log(`\n${renderTable(sections)}\n`);
  for (const s of sections.filter((x) => x.details)) console.log(`${s.name}\n${s.details}\n`);
  const missed = sections.flatMap((s) => s.rows).filter((r) => r.ok === false);
  console.log(
    `${mode} run in ${seconds.toFixed(0)} s; ${missed.length ? `${missed.length} budget(s) MISSED` : 'every budget met'}`,
  );

  if (out) {
    const file = path.resolve(ROOT, out);
    await writeResults(file, renderResults(sections, { date: new Date(), mode, seconds }), TEMPLATE);
    console.log(`written to ${path.relative(ROOT, file)}`);
  }
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ mode, seconds, sections }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
