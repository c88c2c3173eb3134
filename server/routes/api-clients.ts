// Sistema → Integraciones › Claves de API (CONTRACT §21): the admin makes, lists and revokes API keys.
import { Router } from 'express';
import { createApiClientSchema, type MessageResponse } from '@shared/schemas';
import { UI_INTEGRATIONS } from '@shared/labels';
import { currentPrincipal, requireAuth } from '../http/auth';
import { parseBody, parseId } from '../http/validate';
import { createApiClient, listApiClients, revokeApiClient } from '../services/api-clients';

export const apiClientRoutes = Router();
const admin = requireAuth('admin:api-clients');

apiClientRoutes.get('/admin/api-clients', admin, async (_req, res) => {
  res.json(await listApiClients());
});

apiClientRoutes.post('/admin/api-clients', admin, async (req, res) => {
  res.status(201).json(await createApiClient(parseBody(createApiClientSchema, req), currentPrincipal(req)));
});

apiClientRoutes.delete('/admin/api-clients/:id', admin, async (req, res) => {
  await revokeApiClient(parseId(req), currentPrincipal(req));
  const answer: MessageResponse = { message: UI_INTEGRATIONS.keys.revoked };
  res.json(answer);
});
