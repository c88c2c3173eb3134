// Supervision (CONTRACT §5, §7, §8, §12): searcher, Control Conductores, Informes and driver
// analytics, with their Excel exports. Thin: policy → zod → service → answer.
import { Router } from 'express';
import { EXPORT_FILE_NAMES } from '@shared/labels';
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
import { searchTasks } from '../services/search';
import { dailySummary } from '../services/timeclock-summary';
import { deficienciesReport, delayedAssignmentsReport } from '../services/reports';
import { driverAnalytics } from '../services/analytics';
import { timeclockWorkbook } from '../excel/timeclock';
import { analyticsWorkbook } from '../excel/analytics';
import { sendWorkbook } from '../excel/workbook';

export const supervisionRoutes = Router();

supervisionRoutes.get('/admin/search/tasks', requireAuth('tasks:search'), async (req, res) => {
  res.json(await searchTasks(parseQuery(searchQuerySchema, req)));
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
    const { date_from, date_to } = parseQuery(dateRangeQuerySchema, req);
    await sendWorkbook(
      res,
      await timeclockWorkbook(date_from, date_to),
      EXPORT_FILE_NAMES.timeclock(date_from, date_to),
    );
  },
);

supervisionRoutes.get('/admin/reports/deficiencies', requireAuth('reports:read'), async (req, res) => {
  res.json(await deficienciesReport(parseQuery(reportQuerySchema, req)));
});

supervisionRoutes.get('/admin/reports/delayed-assignments', requireAuth('reports:read'), async (req, res) => {
  res.json(await delayedAssignmentsReport(parseQuery(reportQuerySchema, req)));
});

supervisionRoutes.get('/admin/analytics/drivers', requireAuth('admin:analytics'), async (_req, res) => {
  res.json(await driverAnalytics());
});

supervisionRoutes.get('/admin/analytics/export-excel', requireAuth('admin:analytics'), async (req, res) => {
  const { date_from, date_to } = parseQuery(dateRangeQuerySchema, req);
  await sendWorkbook(
    res,
    await analyticsWorkbook(date_from, date_to),
    EXPORT_FILE_NAMES.analytics(date_from, date_to),
  );
});
