// The API reference (CONTRACT §21 "OpenAPI"): the document validates as OpenAPI 3.1, it lists exactly the
// routes an API key may call (found in the real routers) with their scopes, the real answers of real calls
// match their documented schemas, and /api/openapi.json and /api/docs are public. Both engines.
import crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Router } from 'express';
import type { Action } from '../../server/policies';
import { API_SCOPE } from '../../server/policies';
import { openApiDocument } from '../../server/openapi/document';
import { apiRoutes } from '../../server/routes';
import { makeUser, now, setupApp, type TestUser } from '../helpers/context';
import { createMove, makePlace } from '../helpers/places';
import { expectDocumented, validatedDocument } from '../helpers/openapi';

// Each guard remembers the action it checks, so the test can read every route's action off the routers.
vi.mock('../../server/http/auth', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/http/auth')>();
  return {
    ...original,
    requireAuth: (action: Action) => Object.assign(original.requireAuth(action), { action }),
  };
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: { action?: Action } }[] };
  handle: { stack?: Layer[] };
}

/** Every route of the API routers: `get /tasks/{id}` → the action its guard checks. */
function routeActions(router: Router): Map<string, Action | undefined> {
  const found = new Map<string, Action | undefined>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.handle.stack) walk(layer.handle.stack);
      if (!layer.route) continue;
      const path = layer.route.path.replace(/:(\w+)/g, '{$1}');
      const action = layer.route.stack.map((s) => s.handle.action).find(Boolean);
      for (const method of Object.keys(layer.route.methods)) found.set(`${method} ${path}`, action);
    }
  };
  walk(router.stack as unknown as Layer[]);
  return found;
}

/** The operations of the document: `get /tasks` → its operation. */
function documentedOperations() {
  const ops = new Map<string, { 'x-scopes'?: string[]; 'x-action'?: string; security?: object[] }>();
  for (const [path, item] of Object.entries(openApiDocument.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const op = item?.[method];
      if (op) ops.set(`${method} ${path}`, op as never);
    }
  }
  return ops;
}

// GET /tasks/{id} is added by the API keys' work (CONTRACT §21); documented already.
describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const { result } = await validatedDocument();
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(openApiDocument.openapi).toBe('3.1.0');
    expect(openApiDocument.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('documents every route of an action a key may take, with its scope, and nothing else', () => {
    const routes = routeActions(apiRoutes);
    const ops = documentedOperations();
    const keyRoutes = [...routes].filter(([, action]) => action && API_SCOPE[action]);
    expect(keyRoutes.length).toBeGreaterThan(10);
    for (const [route, action] of keyRoutes) {
      const scope = API_SCOPE[action as Action];
      const op = ops.get(route);
      expect(op, `${route} (${action}) no está documentada`).toBeDefined();
      expect(op?.['x-action'], route).toBe(action);
      expect(op?.['x-scopes'], route).toEqual([scope]);
      expect(op?.security, route).toEqual([{ bearerAuth: [scope] }]);
    }
    // Every documented operation is a real route of a key's action (none invented, none of staff only).
    for (const [route, op] of ops) {
      expect(routes.has(route), `${route} no existe`).toBe(true);
      expect(routes.get(route), route).toBe(op['x-action']);
    }
    // Every action of API_SCOPE has at least one documented route.
    const documentedActions = new Set([...ops.values()].map((op) => op['x-action']));
    for (const action of Object.keys(API_SCOPE)) expect(documentedActions, action).toContain(action);
  });

  it('documents the Spanish refusals of a key: 401, 403 and 429 with Retry-After', () => {
    for (const [route, op] of documentedOperations()) {
      const responses = (op as { responses: Record<string, { content?: object; headers?: object }> })
        .responses;
      for (const status of ['401', '403', '429']) {
        expect(responses[status]?.content, `${route} ${status}`).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
      expect(Object.keys(responses['429']?.headers ?? {}), route).toContain('Retry-After');
    }
  });
});

describe('real answers match the document', () => {
  let api: Awaited<ReturnType<typeof setupApp>>['api'];
  let manager: TestUser;
  beforeEach(async () => {
    ({ api } = await setupApp());
    manager = await makeUser('manager');
  });

  it('tasks: create, list, search, edit, delete, and their 400 and 404', async () => {
    const created = await createMove(api, manager, {
      trailer_id: 'R-OPENAPI-1',
      priority: 'high',
      due_at: new Date(now().getTime() + 2 * 3600_000).toISOString(),
      external_ref: 'WMS-1',
    });
    expect(created.status, created.text).toBe(201);
    await expectDocumented('post', '/tasks', created);
    const id = (created.body as { id: string }).id;

    const list = await api().get('/api/tasks').set(manager.auth);
    expect(list.status).toBe(200);
    expect((list.body as { id: string }[]).map((t) => t.id)).toContain(id);
    await expectDocumented('get', '/tasks', list);

    const search = await api().get('/api/admin/search/tasks').query({ query: 'R-OPENAPI' }).set(manager.auth);
    expect(search.status, search.text).toBe(200);
    expect(search.body).toHaveLength(1);
    await expectDocumented('get', '/admin/search/tasks', search);

    const edited = await api().put(`/api/tasks/${id}`).set(manager.auth).send({ priority: 'low' });
    expect(edited.status, edited.text).toBe(200);
    await expectDocumented('put', '/tasks/{id}', edited);

    const refused = await api().post('/api/tasks').set(manager.auth).send({ title: 'Volar' });
    expect(refused.status).toBe(400);
    await expectDocumented('post', '/tasks', refused);

    const missing = await api()
      .put(`/api/tasks/${crypto.randomUUID()}`)
      .set(manager.auth)
      .send({ priority: 'low' });
    expect(missing.status).toBe(404);
    await expectDocumented('put', '/tasks/{id}', missing);

    const deleted = await api().delete(`/api/tasks/${id}`).set(manager.auth);
    expect(deleted.status, deleted.text).toBe(200);
    await expectDocumented('delete', '/tasks/{id}', deleted);
  });

  it('the yard, the trailers and the gate', async () => {
    const campa = await makePlace(api, manager, 'C-1', 'Campa 1', 'campa', 3);
    const locations = await api().get('/api/locations').set(manager.auth);
    expect(locations.status).toBe(200);
    await expectDocumented('get', '/locations', locations);

    const entry = await api()
      .post('/api/gate/entries')
      .set(manager.auth)
      .send({
        truck_plate: '1234-bcd',
        carrier: 'Transportes Pérez',
        trailer: { trailer_id: 'R-OA-2', load_state: 'cargado', location_id: campa.id, seal: 'S-9' },
      });
    expect(entry.status, entry.text).toBe(201);
    await expectDocumented('post', '/gate/entries', entry);
    const visitId = (entry.body as { visit: { id: string } }).visit.id;

    await createMove(api, manager, { trailer_id: 'R-OA-2', origin: 'Campa 1', destination: 'Muelle 3' });
    const yard = await api().get('/api/yard').set(manager.auth);
    expect(yard.status).toBe(200);
    expect(yard.body).toHaveLength(1);
    await expectDocumented('get', '/yard', yard);
    const yardTrailers = await api().get('/api/yard/trailers').set(manager.auth);
    expect(yardTrailers.body).toHaveLength(1);
    await expectDocumented('get', '/yard/trailers', yardTrailers);

    const trailers = await api().get('/api/trailers').query({ q: 'R-OA' }).set(manager.auth);
    expect(trailers.status).toBe(200);
    await expectDocumented('get', '/trailers', trailers);
    const detail = await api().get('/api/trailers/R-OA-2').set(manager.auth);
    expect(detail.status).toBe(200);
    expect((detail.body as { open_task: unknown }).open_task).not.toBeNull();
    await expectDocumented('get', '/trailers/{trailer_id}', detail);
    const unknown = await api().get('/api/trailers/NADIE-99').set(manager.auth);
    expect(unknown.status).toBe(404);
    await expectDocumented('get', '/trailers/{trailer_id}', unknown);

    const visits = await api().get('/api/gate/visits').query({ open: 'true' }).set(manager.auth);
    expect(visits.status).toBe(200);
    await expectDocumented('get', '/gate/visits', visits);
    const suggestions = await api().get('/api/gate/suggestions').set(manager.auth);
    expect(suggestions.status).toBe(200);
    await expectDocumented('get', '/gate/suggestions', suggestions);
    const exit = await api().post('/api/gate/exits').set(manager.auth).send({ visit_id: visitId });
    expect(exit.status, exit.text).toBe(200);
    await expectDocumented('post', '/gate/exits', exit);
    const badQuery = await api().get('/api/gate/visits').set(manager.auth);
    expect(badQuery.status).toBe(400);
    await expectDocumented('get', '/gate/visits', badQuery);
  });

  it('an answer that breaks the document fails the check', async () => {
    const list = await api().get('/api/locations').set(manager.auth);
    list.body = [{ id: 'no-es-un-uuid' }];
    await expect(expectDocumented('get', '/locations', list)).rejects.toThrow(/\/locations 200/);
  });
});

describe('the public reference', () => {
  let api: Awaited<ReturnType<typeof setupApp>>['api'];
  beforeEach(async () => {
    ({ api } = await setupApp());
  });

  it('GET /api/openapi.json needs no session and is the document', async () => {
    const res = await api().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });

  it('GET /api/docs is our page with Swagger UI from the package and no inline script', async () => {
    const page = await api().get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('<html lang="es">');
    expect(page.text).toContain('<script src="/api/docs/assets/swagger-ui-bundle.js"></script>');
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const start = await api().get('/api/docs/start.js');
    expect(start.status).toBe(200);
    expect(start.text).toContain("url: '/api/openapi.json'");
    const bundle = await api().get('/api/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.type).toMatch(/javascript/);
    expect(bundle.text).toContain('SwaggerUIBundle');
  });
});
