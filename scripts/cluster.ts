// `npm run cluster` (CONTRACT §18): a local cluster to try the product on several nodes — PostgreSQL,
// NODES server processes and a reverse proxy on PORT in front of them. scripts/cluster/run.ts does the
// work, in a session of its own: a Ctrl-C in a terminal signals the whole foreground process group, so the
// nodes and PostgreSQL would get it at the same moment as the script (each node would then take the
// script's own SIGTERM for a second signal and stop abruptly; PostgreSQL would be gone before the nodes had
// closed). Here only this process gets it, and passes one SIGTERM on: everything stops in order. Should this
// process be killed, run.ts sees its stdin end and stops all the same; should run.ts be, this one stops
// what it leaves.
import { spawn } from 'node:child_process';
import path from 'node:path';

const run = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster/run.ts'], {
  cwd: path.resolve(import.meta.dirname, '..'),
  detached: true,
  stdio: ['pipe', 'inherit', 'inherit'],
});
let forwarded = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (forwarded) return;
    forwarded = true;
    run.kill('SIGTERM');
  });
run.on('error', (err) => {
  console.error(`[clúster] no se pudo arrancar: ${err.message}`);
  process.exit(1);
});
run.on('exit', (code, signal) => {
  if (signal) {
    // run.ts was killed: its nodes (its process group, as is its embedded PostgreSQL, which its watchdog
    // stops anyway) would be left serving with nobody to stop them.
    console.error(`[clúster] el proceso del clúster terminó por la señal ${signal}; se detienen sus nodos`);
    try {
      process.kill(-run.pid!, 'SIGTERM');
    } catch {
      // nothing left in its group
    }
  }
  process.exit(code ?? 1);
});
