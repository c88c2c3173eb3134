// Property-based garbage (CONTRACT §3): random bodies, query strings and path ids on every endpoint
// that takes input. Whatever arrives, the answer is a 4xx (or, where the garbage happens to be
// harmless, a normal answer) with a non-empty Spanish `detail` — never a 5xx — and the server is alive
// afterwards.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@shared/enums';
import { TEXT_MAX } from '@shared/constants';
import { updateTaskSchema } from '@shared/schemas';
import type { ZodType } from 'zod';
import { makeTask, makeUser, setupApp, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
const who = {} as Record<Role, TestUser>;
let taskId: string;
beforeAll(async () => {
  ({ api } = await setupApp());
  for (const role of ['admin', 'manager', 'gestor', 'conductor'] as const)
    who[role] = await makeUser(role, role === 'conductor' ? { taskTypes: ['semiremolque', 'swap'] } : {});
  taskId = (await makeTask({ vehicleType: 'swap' })).id;
});

const RUNS = 40;
// zod's English defaults or a stack trace would mean a message slipped past the Spanish catalogue.
const ENGLISH = /\b(invalid|expected|required|received|undefined|error:|at \w+ \()/i;

interface Answer {
  status: number;
  body: { detail?: unknown };
}
function expectSane(res: Answer, mustFail: boolean): void {
  expect(res.status).toBeLessThan(500);
  if (mustFail) expect(res.status).toBeGreaterThanOrEqual(400);
  if (res.status >= 400) {
    expect(typeof res.body.detail).toBe('string');
    const detail = res.body.detail as string;
    expect(detail.trim().length).toBeGreaterThan(0);
    expect(detail).not.toMatch(ENGLISH);
  }
}

// ---- generators ----------------------------------------------------------------------------

const nasty = fc.constantFrom(
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '${7*7}',
  '../../etc/passwd',
  '\u0000',
  '\uFFFF\uD800',
  'ñandú ÁÉÍÓÚ',
  'rey',
  'superadmin',
  'x'.repeat(TEXT_MAX + 1),
  'y'.repeat(4_000),
);
/** URL-safe text: lone surrogates cannot be percent-encoded, so surrogates become U+FFFD first. */
const enc = (s: string) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
const junkValue = fc.oneof(
  fc.string(),
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), nasty, fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
);
/** An object with the endpoint's own keys (and some others) holding values of the wrong kind. */
const junkBody = (keys: string[]) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), junkValue, { maxKeys: 6 });
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 2 }), junkValue);
const junkQuery = (keys: string[]) =>
  fc
    .array(
      fc.tuple(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 6 })), fc.oneof(fc.string(), nasty)),
      {
        maxLength: 5,
      },
    )
    .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'));
const junkId = fc.oneof(
  fc.string({ minLength: 1 }),
  nasty,
  fc.uuid().map((u) => u.toUpperCase() + 'x'),
);

// ---- endpoints ----------------------------------------------------------------------------

type Method = 'post' | 'put' | 'delete' | 'get';
/**
 * [method, path, caller, keys of the valid body, whether any junk body must fail — or the schema whose
 * refusal of the body means it must fail].
 */
const BODY_ENDPOINTS: [Method, () => string, Role, string[], boolean | ZodType][] = [
  ['post', () => '/api/auth/register', 'admin', ['email', 'password', 'name', 'role'], true],
  ['post', () => '/api/auth/login', 'admin', ['email', 'password'], true],
  [
    'post',
    () => '/api/tasks',
    'gestor',
    ['title', 'description', 'origin', 'destination', 'trailer_id', 'priority', 'vehicle_type'],
    true,
  ],
  // A gestor's edit with one plain text field (say origin = "' OR 1=1 --") is a valid edit: the
  // shared schema tells which bodies must be refused.
  [
    'put',
    () => `/api/tasks/${taskId}`,
    'gestor',
    ['title', 'priority', 'status', 'assigned_to', 'origin', 'vehicle_type'],
    updateTaskSchema,
  ],
  ['put', () => `/api/tasks/${taskId}`, 'conductor', ['status', 'assigned_to'], true],
  // Unknown keys are ignored there, so a junk body may be harmless: only "never a 5xx" holds.
  ['post', () => `/api/tasks/${taskId}/return`, 'conductor', ['reason'], false],
  ['post', () => '/api/admin/approve-user', 'admin', ['user_id', 'approved'], true],
  ['post', () => '/api/admin/update-user-role', 'admin', ['user_id', 'new_role'], true],
  ['post', () => '/api/admin/update-user-task-types', 'admin', ['user_id', 'task_types'], true],
];
/** [path, caller, query keys, whether any junk query must fail]. */
const QUERY_ENDPOINTS: [Method, string, Role, string[], boolean][] = [
  ['get', '/api/admin/search/tasks', 'gestor', ['search_type', 'query', 'date_from', 'date_to'], false],
  ['get', '/api/admin/timeclock/daily', 'manager', ['last_24h', 'date'], false],
  ['get', '/api/admin/timeclock/export-excel', 'manager', ['date_from', 'date_to'], false],
  ['get', '/api/admin/reports/deficiencies', 'manager', ['period', 'date', 'hour'], false],
  ['get', '/api/admin/reports/delayed-assignments', 'admin', ['period', 'date', 'hour'], false],
  ['get', '/api/admin/analytics/export-excel', 'admin', ['date_from', 'date_to'], false],
  ['get', '/api/admin/system/logs', 'admin', ['limit'], false],
  ['post', '/api/timeclock/punch', 'conductor', ['clock_type'], false],
];
const ID_ENDPOINTS: [Method, (id: string) => string, Role][] = [
  ['put', (id) => `/api/tasks/${id}`, 'gestor'],
  ['delete', (id) => `/api/tasks/${id}`, 'gestor'],
  ['get', (id) => `/api/tasks/${id}/eligible-drivers`, 'gestor'],
  ['post', (id) => `/api/tasks/${id}/self-assign`, 'conductor'],
  ['post', (id) => `/api/tasks/${id}/complete`, 'conductor'],
  ['post', (id) => `/api/tasks/${id}/return`, 'conductor'],
  ['post', (id) => `/api/notifications/${id}/mark-read`, 'manager'],
  ['delete', (id) => `/api/admin/delete-user/${id}`, 'admin'],
];

const call = (method: Method, path: string, role: Role) => api()[method](path).set(who[role].auth);

describe('fuzzed bodies', () => {
  for (const [method, path, role, keys, mustFail] of BODY_ENDPOINTS) {
    it(`${method.toUpperCase()} ${path().replace('undefined', ':id')} as ${role}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(junkBody(keys), anyJson), async (body) => {
          // Sent as raw JSON text, so top-level strings, numbers and null arrive as such.
          const res = await call(method, path(), role)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body));
          expectSane(res, typeof mustFail === 'boolean' ? mustFail : !mustFail.safeParse(body).success);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('fuzzed query strings', () => {
  for (const [method, path, role, keys, mustFail] of QUERY_ENDPOINTS) {
    it(`${method.toUpperCase()} ${path} as ${role}`, async () => {
      await fc.assert(
        fc.asyncProperty(junkQuery(keys), async (query) => {
          const res = await call(method, `${path}?${query}`, role);
          expectSane(res, mustFail);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('repeated keys (arrays) and bracket keys are refused with a 400', async () => {
    const cases: [Method, string, Role][] = [
      ['get', '/api/admin/reports/deficiencies?period=day&period=hour', 'admin'],
      ['get', '/api/admin/reports/deficiencies?date[a]=1', 'admin'],
      ['get', '/api/admin/system/logs?limit=5&limit=6', 'admin'],
      ['get', '/api/admin/search/tasks?query=a&query=b', 'gestor'],
      ['post', '/api/timeclock/punch?clock_type=entrada&clock_type=salida', 'conductor'],
    ];
    for (const [method, path, role] of cases) {
      const res = await call(method, path, role);
      expect(res.status, path).toBe(400);
      expectSane(res, true);
    }
  });
});

describe('fuzzed path ids', () => {
  for (const [method, path, role] of ID_ENDPOINTS) {
    it(`${method.toUpperCase()} ${path(':id')} as ${role}`, async () => {
      await fc.assert(
        fc.asyncProperty(junkId, async (id) => {
          const res = await call(method, path(enc(id)), role).send({});
          expectSane(res, true);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('a malformed percent-encoding in the path is a 4xx, not a crash', async () => {
    const res = await call('delete', '/api/tasks/%E0%A4%A', 'gestor');
    expectSane(res, true);
  });
});

describe('hostile payloads', () => {
  // Not fuzzed at random: a valid advance would move the clock and expire every token of this file.
  it('the test clock refuses negative, fractional, textual and oversized advances', async () => {
    for (const advance_ms of [-1, 1.5, '1000', null, 401 * 24 * 3_600_000, [1], { n: 1 }]) {
      const res = await api().post('/api/test/clock').send({ advance_ms });
      expect(res.status).toBe(400);
      expectSane(res, true);
    }
  });

  it('malformed JSON is a 400 with the Spanish detail', async () => {
    for (const raw of ['{', '{"title": "Mover",}', "{'a': 1}", 'nul', '[1,2', '\u0000']) {
      const res = await api()
        .post('/api/tasks')
        .set(who.gestor.auth)
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('El cuerpo de la petición no es JSON válido');
    }
  });

  it('an oversized body is a 413', async () => {
    const res = await api()
      .post('/api/tasks')
      .set(who.gestor.auth)
      .send({ title: 'Mover', description: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('La petición es demasiado grande');
  });

  it('prototype-pollution keys change nothing', async () => {
    const bodies = [
      '{"__proto__": {"role": "admin", "polluted": true}, "user_id": "x", "new_role": "admin"}',
      '{"constructor": {"prototype": {"polluted": true}}, "title": "Mover"}',
      '{"__proto__": {"priority": "high"}}',
    ];
    for (const raw of bodies)
      for (const path of ['/api/admin/update-user-role', '/api/tasks', `/api/tasks/${taskId}`]) {
        const req = path.includes(taskId) ? api().put(path) : api().post(path);
        const res = await req.set(who.admin.auth).set('Content-Type', 'application/json').send(raw);
        expectSane(res, true);
      }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('SQL-looking text is data: stored verbatim, searched harmlessly, tables intact', async () => {
    const sqlish = "R-1'; DROP TABLE tasks; --";
    const created = await api()
      .post('/api/tasks')
      .set(who.gestor.auth)
      .send({ title: 'Mover', origin: "' OR 1=1 --", destination: 'Campa', trailer_id: sqlish.slice(0, 40) });
    expect(created.status).toBe(201);
    expect(created.body.origin).toBe("' OR 1=1 --");
    const found = await api()
      .get(`/api/admin/search/tasks?query=${encodeURIComponent("' OR '1'='1")}`)
      .set(who.gestor.auth);
    expect(found.status).toBe(200);
    expect(found.body).toEqual([]);
    expect((await api().get('/api/tasks').set(who.admin.auth)).status).toBe(200);
  });

  it('an unknown role at registration or role change is a 400', async () => {
    const reg = await api()
      .post('/api/auth/register')
      .send({ email: `x-${crypto.randomUUID()}@t.es`, password: 'abcdefgh1', name: 'X', role: 'superadmin' });
    expect(reg.status).toBe(400);
    expectSane(reg, true);
    const change = await call('post', '/api/admin/update-user-role', 'admin').send({
      user_id: who.gestor.user.id,
      new_role: 'root',
    });
    expect(change.status).toBe(400);
  });

  it('the server is alive afterwards', async () => {
    const res = await api().get('/api/server-time');
    expect(res.status).toBe(200);
    expect(typeof res.body.epoch_ms).toBe('number');
  });
});
