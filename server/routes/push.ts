// Web Push (CONTRACT §16, §23, §24): the VAPID public key and one's own subscriptions, for any signed-in
// user; an endpoint must be a browser's push service (CONTRACT §23).
import { Router } from 'express';
import { PUSH_MSG } from '@shared/labels';
import { pushSubscriptionSchema, pushUnsubscribeSchema, type PushPublicKey } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody } from '../http/validate';
import { requirePushService, subscribe, unsubscribe, vapidKeys } from '../services/push';

export const pushRoutes = Router();

pushRoutes.get('/push/public-key', requireAuth('push:public-key'), (_req, res) => {
  const answer: PushPublicKey = { public_key: vapidKeys().publicKey };
  res.json(answer);
});

pushRoutes.post('/push/subscriptions', requireAuth('push:subscribe'), async (req, res) => {
  const input = parseBody(pushSubscriptionSchema, req);
  requirePushService(input.endpoint);
  await subscribe(currentUser(req).id, input);
  res.json({ message: PUSH_MSG.subscribed });
});

pushRoutes.delete('/push/subscriptions', requireAuth('push:subscribe'), async (req, res) => {
  const { endpoint } = parseBody(pushUnsubscribeSchema, req);
  requirePushService(endpoint);
  await unsubscribe(currentUser(req).id, endpoint);
  res.json({ message: PUSH_MSG.unsubscribed });
});
