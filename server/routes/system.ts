// Public server time, the load balancer's two probes and, only with TEST_CLOCK=1, the route that moves
// the server clock.
import { Router } from 'express';
import { z } from 'zod';
import type { ServerTime } from '@shared/schemas';
import { madridIso } from '@shared/time';
import { nowMs, runClockListeners, shiftClock } from '../clock';
import { config } from '../config';
import { parseBody } from '../http/validate';
import { evaluateEscalations } from '../services/escalation';
import { isReady } from '../services/health';
import { clockMovedElsewhere } from '../realtime/io';

export const systemRoutes = Router();

systemRoutes.get('/server-time', (_req, res) => {
  const epoch = nowMs();
  const body: ServerTime = { madrid_time: madridIso(epoch), epoch_ms: epoch };
  res.json(body);
});

// CONTRACT §18: public and without details (the full health check is the admin's, CONTRACT §10).
systemRoutes.get('/health/live', (_req, res) => {
  res.json({ status: 'ok' });
});
systemRoutes.get('/health/ready', async (_req, res) => {
  const ready = await isReady();
  res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable' });
});

const advanceSchema = z.object({
  advance_ms: z
    .number()
    .int()
    .min(0)
    .max(400 * 24 * 3_600_000),
});

export const testClockRoutes = Router();
testClockRoutes.post('/test/clock', async (req, res) => {
  if (!config.testClock) return void res.status(404).json({ detail: 'Recurso no encontrado' });
  const { advance_ms } = parseBody(advanceSchema, req);
  // Every node's clock and heartbeat first, then what depends on time everywhere (CONTRACT §18).
  await shiftClock(advance_ms);
  await clockMovedElsewhere('shift', advance_ms);
  await runClockListeners();
  await clockMovedElsewhere('listeners', advance_ms);
  // CONTRACT §20: the escalation rules at the new time, before the answer (one node's evaluation is the
  // yard's: the rows are shared).
  await evaluateEscalations();
  res.json({ epoch_ms: nowMs() });
});
