// The driver's time clock (CONTRACT §7, §12: conductor only).
import { Router } from 'express';
import { punchBodySchema, punchQuerySchema } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseQuery } from '../http/validate';
import { punch, timeclockStatus } from '../services/timeclock';

export const timeclockRoutes = Router();

timeclockRoutes.get('/timeclock/status', requireAuth('timeclock:use'), async (req, res) => {
  res.json(await timeclockStatus(currentUser(req).id));
});

timeclockRoutes.post('/timeclock/punch', requireAuth('timeclock:use'), async (req, res) => {
  const { clock_type } = parseQuery(punchQuerySchema, req);
  res.json(await punch(currentUser(req), clock_type, parseBody(punchBodySchema, req).client_time));
});
