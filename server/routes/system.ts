// Public server time and, only with TEST_CLOCK=1, the route that moves the server clock.
import { Router } from 'express';
import { z } from 'zod';
import type { ServerTime } from '@shared/schemas';
import { madridIso } from '@shared/time';
import { advanceClock, nowMs } from '../clock';
import { config } from '../config';
import { parseBody } from '../http/validate';

export const systemRoutes = Router();

systemRoutes.get('/server-time', (_req, res) => {
  const epoch = nowMs();
  const body: ServerTime = { madrid_time: madridIso(epoch), epoch_ms: epoch };
  res.json(body);
});

const advanceSchema = z.object({
  advance_ms: z
    .number()
    .int()
    .min(0)
    .max(400 * 24 * 3_600_000),
});

export const testClockRoutes = Router();
testClockRoutes.post('/test/clock', (req, res) => {
  if (!config.testClock) return void res.status(404).json({ detail: 'Recurso no encontrado' });
  advanceClock(parseBody(advanceSchema, req).advance_ms);
  res.json({ epoch_ms: nowMs() });
});
