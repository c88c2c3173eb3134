import { Router } from 'express';
import { NOTIFICATION_MARKED_READ } from '@shared/labels';
import { currentUser, requireAuth } from '../http/auth';
import { parseId } from '../http/validate';
import { listNotifications, markRead } from '../services/notifications';

export const notificationRoutes = Router();

notificationRoutes.get('/notifications', requireAuth('notifications:read'), async (req, res) => {
  res.json(await listNotifications(currentUser(req).id));
});

notificationRoutes.post(
  '/notifications/:id/mark-read',
  requireAuth('notifications:read'),
  async (req, res) => {
    await markRead(currentUser(req).id, parseId(req));
    res.json({ message: NOTIFICATION_MARKED_READ });
  },
);
