// `npm run demo` once its environment is set (scripts/demo.ts): the demo yard, the real server in this
// process, the logins, and the simulation until Ctrl-C.
import path from 'node:path';
import { formatTimeWithSeconds } from '@shared/time';
import { configure } from '../../server/config';
import { startServer, type RunningServer } from '../../server/server';
import type { DemoSettings } from './settings';
import { startSimulation } from './simulation';
import { DEMO_TEXT } from './texts';
import { prepareDemoYard, splitDrivers } from './yard';

/** Drivers nobody simulates, so a human can log in as one and work beside the simulated ones. */
export const HUMAN_DRIVERS = 3;

export async function runDemo(settings: DemoSettings): Promise<void> {
  // Demo backups go to data/demo/backups, never among the real server's in data/backups.
  configure({ dataDir: settings.dataDir });
  // As `npm start` does: the client is built when missing or older than its sources.
  await import('../build-client-if-needed');

  const shown = path.relative(process.cwd(), settings.dbPath);
  const { accounts } = await prepareDemoYard(settings, (line) =>
    console.log(line.replace(settings.dbPath, shown)),
  );
  const gestor = accounts.find((a) => a.role === 'gestor');
  const drivers = accounts.filter((a) => a.role === 'conductor');
  if (!gestor || !drivers.length)
    throw new Error(`${shown} no es un patio de demostración: npm run demo -- --fresh`);
  const { simulated, human } = splitDrivers(drivers, HUMAN_DRIVERS);

  let server: RunningServer;
  try {
    server = await startServer({ port: settings.port, print: () => undefined });
  } catch (err) {
    if ((err as { code?: string }).code === 'EADDRINUSE') {
      console.error(DEMO_TEXT.portBusy(settings.port));
      process.exit(1);
    }
    throw err;
  }

  console.log(DEMO_TEXT.ready(`http://localhost:${server.port}`));
  console.log(DEMO_TEXT.loginsTitle);
  for (const a of accounts) {
    const note =
      a.role !== 'conductor'
        ? a === gestor
          ? DEMO_TEXT.simulated
          : ''
        : human.includes(a)
          ? DEMO_TEXT.freeDriver
          : DEMO_TEXT.simulated;
    console.log(DEMO_TEXT.loginLine(a.role, a.email, a.password, a.name, note));
  }
  console.log(`\n${DEMO_TEXT.wallHint}\n${DEMO_TEXT.stopHint}`);

  const say = settings.quiet
    ? undefined
    : (line: string) => console.log(`${formatTimeWithSeconds(Date.now())}  ${line}`);
  const simulation = await startSimulation({ url: server.url, gestor, drivers: simulated, say });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log(DEMO_TEXT.stopping);
    await simulation.stop();
    await server.close();
    console.log(DEMO_TEXT.stopped);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
