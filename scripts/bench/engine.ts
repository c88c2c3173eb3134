// One engine's run of the bench's sections, in a process of its own started by index.ts: the engine of a
// process is fixed when it loads the server's modules (DATABASE_URL, server/db/engine.ts), so the bench
// gives this process DATABASE_URL (its PostgreSQL cluster's maintenance database) or not (SQLite) before
// it starts. Writes an EngineRun as JSON to --result; ends with the bench (its IPC channel closing).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { runClient } from './client';
import { runCluster } from './cluster';
import { closeDatabases, ENGINE } from './database';
import { runFanout } from './fanout';
import { runPushPoll } from './pushpoll';
import type { EngineRun, Section } from './report';
import { runRest } from './rest';
import { CLUSTER_SECTION, ENGINE_LABELS, SECTIONS, SIZES, type Mode, type SectionName } from './sections';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'smoke' },
    only: { type: 'string', default: SECTIONS.join(',') },
    result: { type: 'string' },
    'client-dist': { type: 'string' },
    started: { type: 'string' },
    /** The bench's own temporary folder (removed here if the bench dies first). */
    'bench-dir': { type: 'string' },
  },
});

// The bench gone (killed, interrupted), this process goes too: its servers and temporary folders are
// removed on exit (server.ts), and so is the bench's own folder.
const orphaned = () => {
  if (values['bench-dir']) fs.rmSync(values['bench-dir'], { recursive: true, force: true });
  process.exit(1);
};
process.on('disconnect', orphaned);

async function main(): Promise<void> {
  const mode = values.mode as Mode;
  const sizes = SIZES[mode];
  const only = values.only.split(',') as SectionName[];
  const benchStarted = Number(values.started ?? Date.now());
  const label = ENGINE_LABELS[ENGINE];
  const log = (line: string) =>
    console.log(`[${((Date.now() - benchStarted) / 1000).toFixed(0).padStart(3)} s] ${label}: ${line}`);

  const run: Record<SectionName, () => Promise<Section[]>> = {
    client: () => runClient(sizes.client, log, values['client-dist']),
    fanout: () => runFanout(sizes.fanout, log),
    rest: () => runRest(sizes.rest, log),
    pushpoll: () => runPushPoll(sizes.pushpoll, log),
    cluster: () => runCluster(sizes.cluster, log),
  };
  const started = performance.now();
  const result: EngineRun = { engine: ENGINE, seconds: 0, sections: [], errors: [] };
  for (const name of [...SECTIONS, CLUSTER_SECTION] as SectionName[]) {
    if (!only.includes(name)) continue;
    try {
      result.sections.push(...(await run[name]()));
    } catch (err) {
      // A section that fails is reported; the others still run.
      console.error(`${label}: section ${name} failed:`, err);
      result.errors.push({ section: name, message: err instanceof Error ? err.message : String(err) });
    }
  }
  await closeDatabases();
  result.seconds = (performance.now() - started) / 1000;
  if (values.result) fs.writeFileSync(values.result, JSON.stringify(result));
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  // The channel to the bench must not keep this process alive once the sections are done.
  .finally(() => {
    process.off('disconnect', orphaned);
    if (process.connected) process.disconnect();
  });
