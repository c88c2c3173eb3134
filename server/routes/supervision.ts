// Supervision (CONTRACT §5, §7, §8, §12): searcher, Control Conductores, Informes and driver
// analytics, with their Excel exports. Thin: policy → zod → service → answer; the long reads through
// sendLongRead (off the event loop on SQLite).
import { Router } from 'express';
import {
  addPunchSchema,
  dailySummaryQuerySchema,
  dateRangeQuerySchema,
  removePunchSchema,
  reportQuerySchema,
  searchQuerySchema,
} from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { addPunch, removePunch } from '../services/timeclock';
import { dailySummary } from '../services/timeclock-summary';
import { driverAnalytics } from '../services/analytics';
import { sendLongRead } from '../http/long-read';

export const supervisionRoutes = Router();

supervisionRoutes.get('/admin/search/tasks', requireAuth('tasks:search'), async (req, res) => {
  await sendLongRead(res, 'search', parseQuery(searchQuerySchema, req));
});

supervisionRoutes.get('/admin/timeclock/daily', requireAuth('timeclock:supervise'), async (req, res) => {
  res.json(await dailySummary(parseQuery(dailySummaryQuerySchema, req)));
});

// CONTRACT §15: a supervisor adds a forgotten punch or removes a wrong one, with a reason.
supervisionRoutes.post('/admin/timeclock/punches', requireAuth('timeclock:correct'), async (req, res) => {
  res.status(201).json(await addPunch(currentUser(req), parseBody(addPunchSchema, req)));
});

supervisionRoutes.delete(
  '/admin/timeclock/punches/:id',
  requireAuth('timeclock:correct'),
  async (req, res) => {
    const id = parseId(req);
    res.json(await removePunch(currentUser(req), id, parseBody(removePunchSchema, req)));
  },
);

supervisionRoutes.get(
  '/admin/timeclock/export-excel',
  requireAuth('timeclock:supervise'),
  async (req, res) => {
    await sendLongRead(res, 'timeclockExcel', parseQuery(dateRangeQuerySchema, req));
  },
);

supervisionRoutes.get('/admin/reports/deficiencies', requireAuth('reports:read'), async (req, res) => {
  await sendLongRead(res, 'deficiencies', parseQuery(reportQuerySchema, req));
});

supervisionRoutes.get('/admin/reports/delayed-assignments', requireAuth('reports:read'), async (req, res) => {
  await sendLongRead(res, 'delayedAssignments', parseQuery(reportQuerySchema, req));
});

supervisionRoutes.get('/admin/analytics/drivers', requireAuth('admin:analytics'), async (_req, res) => {
  res.json(await driverAnalytics());
});

supervisionRoutes.get('/admin/analytics/export-excel', requireAuth('admin:analytics'), async (req, res) => {
  await sendLongRead(res, 'analyticsExcel', parseQuery(dateRangeQuerySchema, req));
});
