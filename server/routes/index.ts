// Every /api router, one per domain. Routes stay thin: parse → policy → service → presenter.
import { Router } from 'express';
import { authRoutes } from './auth';
import { dashboardRoutes } from './dashboard';
import { taskRoutes } from './tasks';
import { rankingRoutes } from './rankings';
import { notificationRoutes } from './notifications';
import { timeclockRoutes } from './timeclock';
import { adminUserRoutes } from './admin-users';
import { supervisionRoutes } from './supervision';
import { adminSystemRoutes } from './admin-system';
import { systemRoutes, testClockRoutes } from './system';
import { pushRoutes } from './push';
import { yardRoutes } from './yard';
import { gatePhotoRoutes } from './gate-photos';
import { gateRoutes } from './gate';
import { trailerRoutes } from './trailers';
import { handoverRoutes } from './handover';
import { apiDocsRoutes } from './api-docs';
import { webhookRoutes } from './webhooks';
import { apiClientRoutes } from './api-clients';
import { indicatorRoutes } from './indicators';

export const apiRoutes = Router();
apiRoutes.use(
  systemRoutes,
  apiDocsRoutes,
  testClockRoutes,
  authRoutes,
  dashboardRoutes,
  taskRoutes,
  rankingRoutes,
  notificationRoutes,
  timeclockRoutes,
  adminUserRoutes,
  supervisionRoutes,
  adminSystemRoutes,
  pushRoutes,
  yardRoutes,
  gatePhotoRoutes,
  gateRoutes,
  trailerRoutes,
  handoverRoutes,
  webhookRoutes,
  apiClientRoutes,
  indicatorRoutes,
);
