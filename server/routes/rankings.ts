// POST /api/admin/reset-rankings (admin, no body): every driver back to 0 movements (CONTRACT §5).
import { Router } from 'express';
import type { MessageResponse } from '@shared/schemas';
import { TASK_MSG } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { resetRankings } from '../tasks';

export const rankingRoutes = Router();

rankingRoutes.post('/admin/reset-rankings', requireAuth('admin:analytics'), async (req, res) => {
  await resetRankings(currentUser(req));
  const body: MessageResponse = { message: TASK_MSG.rankingsReset };
  res.json(body);
});
