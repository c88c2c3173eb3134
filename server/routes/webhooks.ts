// Webhooks (CONTRACT §21, admin only): the endpoints of other systems, their tests and their deliveries.
import { Router } from 'express';
import { createWebhookSchema, deliveryIdParams, updateWebhookSchema } from '@shared/schemas';
import { currentUser, requireAuth } from '../http/auth';
import { parseBody, parseId } from '../http/validate';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  retryDelivery,
  rotateSecret,
  updateWebhook,
} from '../services/webhooks/admin';

export const webhookRoutes = Router();
const admin = requireAuth('admin:webhooks');
const actorOf = (req: Parameters<typeof currentUser>[0]) => {
  const { id, name } = currentUser(req);
  return { id, name };
};

webhookRoutes.post('/admin/webhooks', admin, async (req, res) => {
  res.status(201).json(await createWebhook(parseBody(createWebhookSchema, req), actorOf(req)));
});

webhookRoutes.get('/admin/webhooks', admin, async (_req, res) => {
  res.json(await listWebhooks());
});

webhookRoutes.post('/admin/webhooks/deliveries/:id/retry', admin, async (req, res) => {
  res.json(await retryDelivery(deliveryIdParams.parse(req.params).id));
});

webhookRoutes.get('/admin/webhooks/:id', admin, async (req, res) => {
  res.json(await getWebhook(parseId(req)));
});

webhookRoutes.put('/admin/webhooks/:id', admin, async (req, res) => {
  const id = parseId(req);
  res.json(await updateWebhook(id, parseBody(updateWebhookSchema, req), actorOf(req)));
});

webhookRoutes.delete('/admin/webhooks/:id', admin, async (req, res) => {
  await deleteWebhook(parseId(req), actorOf(req));
  res.status(204).end();
});

webhookRoutes.post('/admin/webhooks/:id/rotate-secret', admin, async (req, res) => {
  res.json(await rotateSecret(parseId(req), actorOf(req)));
});

webhookRoutes.post('/admin/webhooks/:id/test', admin, async (req, res) => {
  res.json(await pingWebhook(parseId(req)));
});

webhookRoutes.get('/admin/webhooks/:id/deliveries', admin, async (req, res) => {
  res.json(await listDeliveries(parseId(req)));
});
