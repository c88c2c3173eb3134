// Web Push (CONTRACT §16, §12): the VAPID public key for any signed-in user; a driver's own subscriptions.
import { Router } from 'express';
import { PUSH_MSG } from '@shared/labels';
import { pushSubscriptionSchema, pushUnsubscribeSchema, type PushPublicKey } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody } from '../http/validate';
import { subscribe, unsubscribe, vapidKeys } from '../services/push';

export const pushRoutes = Router();

pushRoutes.get('/push/public-key', requireAuth('push:public-key'), (_req, res) => {
  const answer: PushPublicKey = { public_key: vapidKeys().publicKey };
  res.json(answer);
});

pushRoutes.post('/push/subscriptions', requireAuth('push:subscribe'), async (req, res) => {
  await subscribe(currentUser(req).id, parseBody(pushSubscriptionSchema, req));
  res.json({ message: PUSH_MSG.subscribed });
});

pushRoutes.delete('/push/subscriptions', requireAuth('push:subscribe'), async (req, res) => {
  await unsubscribe(currentUser(req).id, parseBody(pushUnsubscribeSchema, req).endpoint);
  res.json({ message: PUSH_MSG.unsubscribed });
});
