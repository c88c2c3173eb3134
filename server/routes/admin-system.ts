// Sistema (admin only, CONTRACT §10, §12): database status, health, activity log, maintenance, backups.
import { Router } from 'express';
import { logsQuerySchema, type BackupResult } from '@shared/schemas';
import { SYSTEM_MSG } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { parseQuery } from '../http/validate';
import { recentActivity } from '../services/activity';
import { clearAllTokens, dbStatus, runMigrationsAndRepair } from '../services/system';
import { healthCheck } from '../services/health';
import { takeBackup } from '../services/backups';

export const adminSystemRoutes = Router();
const admin = requireAuth('admin:system');
const actorOf = (req: Parameters<typeof currentUser>[0]) => {
  const { id, name } = currentUser(req);
  return { id, name };
};

adminSystemRoutes.get('/admin/system/db-status', admin, async (_req, res) => {
  res.json(await dbStatus());
});

adminSystemRoutes.get('/admin/system/health-check', admin, async (_req, res) => {
  res.json(await healthCheck());
});

adminSystemRoutes.get('/admin/system/logs', admin, async (req, res) => {
  res.json(await recentActivity(parseQuery(logsQuerySchema, req)));
});

adminSystemRoutes.post('/admin/system/run-migrations', admin, async (req, res) => {
  res.json(await runMigrationsAndRepair(actorOf(req)));
});

adminSystemRoutes.post('/admin/system/clear-all-tokens', admin, async (req, res) => {
  res.json(await clearAllTokens(actorOf(req)));
});

adminSystemRoutes.post('/admin/system/backup', admin, async (req, res) => {
  const { file } = await takeBackup(actorOf(req));
  const body: BackupResult = { message: SYSTEM_MSG.backupDone(file), file };
  res.json(body);
});
