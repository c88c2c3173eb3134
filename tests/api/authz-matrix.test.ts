// The authorization matrix (CONTRACT §3, §4, §12): every /api endpoint × every kind of caller, with the
// expected status written out by hand — deliberately NOT derived from server/policies.ts, so a wrong
// entry in the policy table makes a cell fail. Every cell runs on fresh users and fixtures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_TTL_MS } from '@shared/constants';
import type { Role } from '@shared/enums';
import { config, configure } from '../../server/config';
import { isPostgres } from '../../server/db';
import { users } from '../../server/db/tables';
import { nowMs } from '../../server/clock';
import { PASSWORD, db, makeTask, makeUser, setupApp, tokenFor, tx } from '../helpers/context';

const CALLERS = [
  'none',
  'forged',
  'expired',
  'revoked',
  'deleted',
  'conductor',
  'gestor',
  'manager',
  'admin',
] as const;
type Caller = (typeof CALLERS)[number];

interface Req {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  body?: object;
}
/** Builds the request for a caller (fresh fixtures, so an allowed role meets its success case). */
type Build = (me: { id: string; role: Role }) => Req | Promise<Req>;

const RANGE = 'date_from=2026-01-01&date_to=2026-01-02';
let trailer = 0;
const newTrailer = () => `AZ-${String(++trailer).padStart(5, '0')}`;
const validTask = () => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa B-1',
  trailer_id: newTrailer(),
  priority: 'normal',
  vehicle_type: 'semiremolque',
});
/** A push subscription with a real P-256 public key (65 bytes, uncompressed) and a 16-byte secret. */
const pushSubscription = () => {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: crypto.randomBytes(16).toString('base64url'),
    },
  };
};
let place = 0;
/** A catalogue place of its own (CONTRACT §17). */
const newPlace = () => {
  const n = ++place;
  return { code: `AZ-${n}`, name: `Sitio AZ ${n}`, kind: 'campa', zone: 'Campa Z', x: n % 100, y: 0 };
};
const placeId = async () =>
  (
    await api()
      .post('/api/admin/locations')
      .set((await makeUser('admin')).auth)
      .send(newPlace())
  ).body.id as string;

/** A task the caller drives (when the caller is a conductor), for complete/return. */
const ownActive = async (me: { id: string; role: Role }) =>
  (
    await makeTask({
      status: 'en_proceso',
      trailerId: newTrailer(),
      assignedTo: me.role === 'conductor' ? me.id : (await makeUser('conductor')).user.id,
    })
  ).id;

// prettier-ignore
const MATRIX: [string, Build, ...number[]][] = [
  // endpoint                                        request builder                                                                                                  none forged expired revoked deleted  cond gestor manager admin
  ['GET /server-time',                               () => ({ method: 'get', path: '/api/server-time' }),                                                              200, 200, 200, 200, 200, 200, 200, 200, 200],
  ['GET /health/live',                               () => ({ method: 'get', path: '/api/health/live' }),                                                              200, 200, 200, 200, 200, 200, 200, 200, 200],
  ['GET /health/ready',                              () => ({ method: 'get', path: '/api/health/ready' }),                                                             200, 200, 200, 200, 200, 200, 200, 200, 200],
  ['POST /test/clock',                               () => ({ method: 'post', path: '/api/test/clock', body: { advance_ms: 0 } }),                                   200, 200, 200, 200, 200, 200, 200, 200, 200],
  ['POST /auth/register',                            () => ({ method: 'post', path: '/api/auth/register', body: { email: `r-${crypto.randomUUID()}@t.es`, password: 'abcdefgh1', name: 'Nuevo' } }), 201, 201, 201, 201, 201, 201, 201, 201, 201],
  ['POST /auth/login',                               async () => ({ method: 'post', path: '/api/auth/login', body: { email: (await makeUser('gestor')).user.email, password: PASSWORD } }), 200, 200, 200, 200, 200, 200, 200, 200, 200],
  ['POST /auth/refresh',                             () => ({ method: 'post', path: '/api/auth/refresh' }),                                                            401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['POST /auth/logout',                              () => ({ method: 'post', path: '/api/auth/logout' }),                                                             401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /dashboard/stats',                           () => ({ method: 'get', path: '/api/dashboard/stats' }),                                                          401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /dashboard/online-drivers',                  () => ({ method: 'get', path: '/api/dashboard/online-drivers' }),                                                 401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /dashboard/rankings',                        () => ({ method: 'get', path: '/api/dashboard/rankings' }),                                                       401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /tasks',                                     () => ({ method: 'get', path: '/api/tasks' }),                                                                    401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /notifications',                             () => ({ method: 'get', path: '/api/notifications' }),                                                            401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['POST /notifications/{id}/mark-read (unknown)',   () => ({ method: 'post', path: `/api/notifications/${crypto.randomUUID()}/mark-read` }),                          401, 401, 401, 401, 401, 404, 404, 404, 404],
  ['POST /tasks',                                    () => ({ method: 'post', path: '/api/tasks', body: validTask() }),                                              401, 401, 401, 401, 401, 403, 201, 201, 201],
  ['PUT /tasks/{id} (a pool task\'s priority)',      async () => ({ method: 'put', path: `/api/tasks/${(await makeTask({ trailerId: newTrailer() })).id}`, body: { priority: 'high' } }), 401, 401, 401, 401, 401, 409, 200, 200, 200],
  ['PUT /tasks/{id} (unknown)',                      () => ({ method: 'put', path: `/api/tasks/${crypto.randomUUID()}`, body: { priority: 'high' } }),                 401, 401, 401, 401, 401, 404, 404, 404, 404],
  ['DELETE /tasks/{id}',                             async () => ({ method: 'delete', path: `/api/tasks/${(await makeTask({ trailerId: newTrailer() })).id}` }),                   401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /tasks/{id}/eligible-drivers',               async () => ({ method: 'get', path: `/api/tasks/${(await makeTask({ trailerId: newTrailer() })).id}/eligible-drivers` }),      401, 401, 401, 401, 401, 403, 200, 200, 200],
  // CONTRACT §21: a task as GET /tasks shows it (a semiremolque pool task: the conductor's type sees it too).
  ['GET /tasks/{id}',                                async () => ({ method: 'get', path: `/api/tasks/${(await makeTask({ trailerId: newTrailer(), vehicleType: 'semiremolque' })).id}` }), 401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /tasks/{id} (unknown)',                      () => ({ method: 'get', path: `/api/tasks/${crypto.randomUUID()}` }),                                             401, 401, 401, 401, 401, 404, 404, 404, 404],
  ['GET /tasks/swap-available',                      () => ({ method: 'get', path: '/api/tasks/swap-available' }),                                                     401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['GET /tasks/my-active (none: 404)',               () => ({ method: 'get', path: '/api/tasks/my-active' }),                                                          401, 401, 401, 401, 401, 404, 403, 403, 403],
  ['POST /tasks/{id}/self-assign',                   async () => ({ method: 'post', path: `/api/tasks/${(await makeTask({ vehicleType: 'swap', trailerId: newTrailer() })).id}/self-assign` }), 401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['POST /tasks/{id}/complete',                      async (me) => ({ method: 'post', path: `/api/tasks/${await ownActive(me)}/complete` }),                                     401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['POST /tasks/{id}/return',                        async (me) => ({ method: 'post', path: `/api/tasks/${await ownActive(me)}/return`, body: { reason: null } }),                401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['GET /timeclock/status',                          () => ({ method: 'get', path: '/api/timeclock/status' }),                                                         401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['POST /timeclock/punch',                          () => ({ method: 'post', path: '/api/timeclock/punch?clock_type=entrada' }),                                      401, 401, 401, 401, 401, 200, 403, 403, 403],
  ['GET /admin/search/tasks',                        () => ({ method: 'get', path: '/api/admin/search/tasks?query=AZ' }),                                              401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /admin/timeclock/daily',                     () => ({ method: 'get', path: '/api/admin/timeclock/daily' }),                                                    401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/timeclock/export-excel',              () => ({ method: 'get', path: `/api/admin/timeclock/export-excel?${RANGE}` }),                                   401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/reports/deficiencies',                () => ({ method: 'get', path: '/api/admin/reports/deficiencies' }),                                               401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/reports/delayed-assignments',         () => ({ method: 'get', path: '/api/admin/reports/delayed-assignments' }),                                        401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/pending-users',                       () => ({ method: 'get', path: '/api/admin/pending-users' }),                                                      401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/approve-user',                       async () => ({ method: 'post', path: '/api/admin/approve-user', body: { user_id: (await makeUser('conductor', { approved: false })).user.id, approved: true } }), 401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/users',                               () => ({ method: 'get', path: '/api/admin/users' }),                                                              401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/update-user-role',                   async () => ({ method: 'post', path: '/api/admin/update-user-role', body: { user_id: (await makeUser('gestor')).user.id, new_role: 'manager' } }), 401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/update-user-task-types',             async () => ({ method: 'post', path: '/api/admin/update-user-task-types', body: { user_id: (await makeUser('conductor')).user.id, task_types: ['swap'] } }), 401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['DELETE /admin/delete-user/{id}',                 async () => ({ method: 'delete', path: `/api/admin/delete-user/${(await makeUser('gestor')).user.id}` }),                    401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/analytics/drivers',                   () => ({ method: 'get', path: '/api/admin/analytics/drivers' }),                                                  401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/analytics/export-excel',              () => ({ method: 'get', path: `/api/admin/analytics/export-excel?${RANGE}` }),                                   401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/reset-rankings',                     () => ({ method: 'post', path: '/api/admin/reset-rankings' }),                                                    401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/system/db-status',                    () => ({ method: 'get', path: '/api/admin/system/db-status' }),                                                   401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/system/health-check',                 () => ({ method: 'get', path: '/api/admin/system/health-check' }),                                                401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/system/logs',                         () => ({ method: 'get', path: '/api/admin/system/logs?limit=5' }),                                                401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/system/run-migrations',              () => ({ method: 'post', path: '/api/admin/system/run-migrations' }),                                             401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/system/clear-all-tokens',            () => ({ method: 'post', path: '/api/admin/system/clear-all-tokens' }),                                           401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /auth/change-password',                     () => ({ method: 'post', path: '/api/auth/change-password', body: { current_password: PASSWORD, new_password: 'otra-clave-segura' } }), 401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['GET /push/public-key',                           () => ({ method: 'get', path: '/api/push/public-key' }),                                                          401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['POST /push/subscriptions',                       () => ({ method: 'post', path: '/api/push/subscriptions', body: pushSubscription() }),                         401, 401, 401, 401, 401, 200, 200, 200, 200],
  // Past the role gate everyone reaches the service, which knows no such subscription of theirs.
  ['DELETE /push/subscriptions',                     () => ({ method: 'delete', path: '/api/push/subscriptions', body: { endpoint: pushSubscription().endpoint } }), 401, 401, 401, 401, 401, 404, 404, 404, 404],
  ['POST /admin/timeclock/punches',                  async () => ({ method: 'post', path: '/api/admin/timeclock/punches', body: { user_id: (await makeUser('conductor')).user.id, clock_type: 'entrada', timestamp: new Date(nowMs() - 3_600_000).toISOString(), reason: 'Olvidó fichar' } }), 401, 401, 401, 401, 401, 403, 403, 201, 201],
  ['PUT /admin/users/{id}',                          async () => ({ method: 'put', path: `/api/admin/users/${(await makeUser('gestor')).user.id}`, body: { name: 'Nombre Corregido' } }), 401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/users/{id}/reset-password',          async () => ({ method: 'post', path: `/api/admin/users/${(await makeUser('gestor')).user.id}/reset-password` }),              401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /admin/users/{id}/sessions',                 async () => ({ method: 'get', path: `/api/admin/users/${(await makeUser('gestor')).user.id}/sessions` }),                     401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['DELETE /admin/users/{id}/sessions/{sid}',        async () => { const u = await makeUser('gestor'); return { method: 'delete', path: `/api/admin/users/${u.user.id}/sessions/${(jwt.decode(u.token) as { sid: string }).sid}` }; }, 401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['GET /locations',                                 () => ({ method: 'get', path: '/api/locations' }),                                                                401, 401, 401, 401, 401, 200, 200, 200, 200],
  ['POST /admin/locations',                          () => ({ method: 'post', path: '/api/admin/locations', body: newPlace() }),                                     401, 401, 401, 401, 401, 403, 403, 201, 201],
  ['PUT /admin/locations/{id}',                      async () => ({ method: 'put', path: `/api/admin/locations/${await placeId()}`, body: { capacity: 3 } }),       401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['DELETE /admin/locations/{id}',                   async () => ({ method: 'delete', path: `/api/admin/locations/${await placeId()}` }),                            401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['POST /admin/locations/import',                   () => { const p = newPlace(); return { method: 'post', path: '/api/admin/locations/import', body: { csv: `code,name,kind,zone,capacity,x,y\n${p.code},${p.name},campa,Campa Z,1,0,0` } }; }, 401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /yard',                                      () => ({ method: 'get', path: '/api/yard' }),                                                                     401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /yard/trailers',                             () => ({ method: 'get', path: '/api/yard/trailers' }),                                                            401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /yard/trailers/export-excel',                () => ({ method: 'get', path: '/api/yard/trailers/export-excel' }),                                               401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['POST /yard/trailers/{id}/leave (not there: 404)', () => ({ method: 'post', path: `/api/yard/trailers/${newTrailer()}/leave` }),                                   401, 401, 401, 401, 401, 403, 404, 404, 404],
  ['POST /gate/photos (no file: 400)',                () => ({ method: 'post', path: '/api/gate/photos', body: {} }),                                                   401, 401, 401, 401, 401, 400, 400, 400, 400],
  ['GET /gate/photos/{id} (unknown: 404)',            () => ({ method: 'get', path: `/api/gate/photos/${crypto.randomUUID()}` }),                                    401, 401, 401, 401, 401, 403, 404, 404, 404],
  ['POST /trailers/{id}/damage',                     () => ({ method: 'post', path: `/api/trailers/${newTrailer()}/damage`, body: { note: 'Lona rota' } }),           401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['POST /trailers/{id}/clear-damage (unknown: 404)', () => ({ method: 'post', path: `/api/trailers/${newTrailer()}/clear-damage`, body: { note: 'Reparado' } }),   401, 401, 401, 401, 401, 403, 404, 404, 404],
  // CONTRACT §24: the gate is staff's.
  ['POST /gate/entries (a truck alone)',             () => ({ method: 'post', path: '/api/gate/entries', body: { truck_plate: newTrailer(), carrier: 'Trans' } }), 401, 401, 401, 401, 401, 403, 201, 201, 201],
  ['POST /gate/exits (unknown visit: 404)',          () => ({ method: 'post', path: '/api/gate/exits', body: { visit_id: crypto.randomUUID() } }),                    401, 401, 401, 401, 401, 403, 404, 404, 404],
  ['GET /gate/visits',                               () => ({ method: 'get', path: '/api/gate/visits?open=true' }),                                                   401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /gate/suggestions',                          () => ({ method: 'get', path: '/api/gate/suggestions?load_state=cargado' }),                                     401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /admin/reports/truck-stays',                 () => ({ method: 'get', path: `/api/admin/reports/truck-stays?from=2026-01-01&to=2026-01-02` }),                 401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/reports/truck-stays/export-excel',    () => ({ method: 'get', path: `/api/admin/reports/truck-stays/export-excel?from=2026-01-01&to=2026-01-02` }),    401, 401, 401, 401, 401, 403, 403, 200, 200],
  // CONTRACT §24: the indicators are admin's and manager's.
  ['GET /admin/indicators',                          () => ({ method: 'get', path: `/api/admin/indicators?from=2026-01-01&to=2026-01-02` }),                          401, 401, 401, 401, 401, 403, 403, 200, 200],
  ['GET /admin/indicators/export-excel',             () => ({ method: 'get', path: `/api/admin/indicators/export-excel?from=2026-01-01&to=2026-01-02` }),             401, 401, 401, 401, 401, 403, 403, 200, 200],
  // CONTRACT §24: trailers are staff's.
  ['GET /trailers',                                  () => ({ method: 'get', path: '/api/trailers?q=AZ' }),                                                           401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /trailers/{id} (unknown: 404)',              () => ({ method: 'get', path: `/api/trailers/${newTrailer()}` }),                                                401, 401, 401, 401, 401, 403, 404, 404, 404],
  ['PUT /trailers/{id} (unknown: 404)',              () => ({ method: 'put', path: `/api/trailers/${newTrailer()}`, body: { version: 1, kind: 'lona' } }),             401, 401, 401, 401, 401, 403, 404, 404, 404],
  ['POST /trailers/{id}/position',                   async () => ({ method: 'post', path: `/api/trailers/${newTrailer()}/position`, body: { location_id: await placeId() } }), 401, 401, 401, 401, 401, 403, 200, 200, 200],
  // CONTRACT §24: the handover is staff's; a note is deleted only by its author (another's: 403, unknown: 404).
  ['GET /handover',                                  () => ({ method: 'get', path: '/api/handover?shift=tarde&date=2026-11-24' }),                                    401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['GET /handover/export-excel',                     () => ({ method: 'get', path: '/api/handover/export-excel' }),                                                   401, 401, 401, 401, 401, 403, 200, 200, 200],
  ['POST /handover/notes',                           () => ({ method: 'post', path: '/api/handover/notes', body: { text: 'Nota' } }),                                 401, 401, 401, 401, 401, 403, 201, 201, 201],
  ['DELETE /handover/notes/{id} (unknown: 404)',     () => ({ method: 'delete', path: `/api/handover/notes/${crypto.randomUUID()}` }),                                401, 401, 401, 401, 401, 403, 404, 404, 404],
  // CONTRACT §21: API clients are the admin's.
  ['GET /admin/api-clients',                         () => ({ method: 'get', path: '/api/admin/api-clients' }),                                                       401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/api-clients',                        () => ({ method: 'post', path: '/api/admin/api-clients', body: { name: `WMS ${crypto.randomUUID()}`, scopes: ['tasks:read'] } }), 401, 401, 401, 401, 401, 403, 403, 403, 201],
  ['DELETE /admin/api-clients/{id} (unknown: 404)',  () => ({ method: 'delete', path: `/api/admin/api-clients/${crypto.randomUUID()}` }),                            401, 401, 401, 401, 401, 403, 403, 403, 404],
  // CONTRACT §21: webhooks are the admin's (unknown ids: 404 past the gate). The target is a LAN address
  // (allowed, never contacted: the webhook is only created).
  ['GET /admin/webhooks',                            () => ({ method: 'get', path: '/api/admin/webhooks' }),                                                          401, 401, 401, 401, 401, 403, 403, 403, 200],
  ['POST /admin/webhooks',                           () => ({ method: 'post', path: '/api/admin/webhooks', body: { url: 'http://10.20.30.40/torre', events: ['task.created'] } }), 401, 401, 401, 401, 401, 403, 403, 403, 201],
  ['GET /admin/webhooks/{id} (unknown: 404)',        () => ({ method: 'get', path: `/api/admin/webhooks/${crypto.randomUUID()}` }),                                  401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['PUT /admin/webhooks/{id} (unknown: 404)',        () => ({ method: 'put', path: `/api/admin/webhooks/${crypto.randomUUID()}`, body: { active: false } }),        401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['DELETE /admin/webhooks/{id} (unknown: 404)',     () => ({ method: 'delete', path: `/api/admin/webhooks/${crypto.randomUUID()}` }),                               401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['POST /admin/webhooks/{id}/rotate-secret (404)',  () => ({ method: 'post', path: `/api/admin/webhooks/${crypto.randomUUID()}/rotate-secret` }),                   401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['POST /admin/webhooks/{id}/test (unknown: 404)',  () => ({ method: 'post', path: `/api/admin/webhooks/${crypto.randomUUID()}/test` }),                            401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['GET /admin/webhooks/{id}/deliveries (404)',      () => ({ method: 'get', path: `/api/admin/webhooks/${crypto.randomUUID()}/deliveries` }),                      401, 401, 401, 401, 401, 403, 403, 403, 404],
  ['POST /admin/webhooks/deliveries/{id}/retry (404)', () => ({ method: 'post', path: '/api/admin/webhooks/deliveries/999999/retry' }),                             401, 401, 401, 401, 401, 403, 403, 403, 404],
  // The admin passes the gate on both engines; PostgreSQL's backups are the database's (CONTRACT §18): 409.
  ['POST /admin/system/backup',                      () => ({ method: 'post', path: '/api/admin/system/backup' }),                                                     401, 401, 401, 401, 401, 403, 403, 403, isPostgres ? 409 : 200],
];

let api: Awaited<ReturnType<typeof setupApp>>['api'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-authz-'));
beforeAll(async () => {
  ({ api } = await setupApp());
  configure({ dataDir: tmp }); // the backup cell writes here, not into the repository's data/
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The Authorization header of a caller kind (all invalid kinds are made for an admin: the strongest). */
async function authFor(caller: Caller): Promise<{ header?: string; me: { id: string; role: Role } }> {
  if (caller === 'none') return { me: { id: '', role: 'admin' } };
  if (caller === 'forged') {
    const { user } = await makeUser('admin');
    const iat = Math.floor(nowMs() / 1000);
    const token = jwt.sign({ sub: user.id, tv: 0, iat, exp: iat + 3600 }, 'no-es-el-secreto-del-servidor');
    return { header: `Bearer ${token}`, me: user };
  }
  if (caller === 'expired') {
    const { user } = await makeUser('admin');
    const iat = Math.floor((nowMs() - TOKEN_TTL_MS - 60_000) / 1000);
    const token = jwt.sign(
      { sub: user.id, tv: user.tokenVersion, iat, exp: iat + TOKEN_TTL_MS / 1000 },
      config.jwtSecret,
    );
    return { header: `Bearer ${token}`, me: user };
  }
  if (caller === 'revoked') {
    const { user, token } = await makeUser('admin');
    await tx(() =>
      db
        .update(users)
        .set({ tokenVersion: user.tokenVersion + 1 })
        .where(eq(users.id, user.id)),
    );
    return { header: `Bearer ${token}`, me: user };
  }
  if (caller === 'deleted') {
    const { user, token } = await makeUser('admin');
    await tx(() =>
      db
        .update(users)
        .set({ deletedAt: new Date(nowMs()) })
        .where(eq(users.id, user.id)),
    );
    return { header: `Bearer ${token}`, me: user };
  }
  const { user } = await makeUser(
    caller,
    caller === 'conductor' ? { taskTypes: ['semiremolque', 'swap'] } : {},
  );
  return { header: `Bearer ${await tokenFor(user)}`, me: user };
}

function send(req: Req, header?: string) {
  let r = api()[req.method](req.path);
  if (header) r = r.set('Authorization', header);
  return req.body ? r.send(req.body) : r;
}

describe('authorization matrix', () => {
  it('lists every endpoint once and every caller kind', () => {
    expect(new Set(MATRIX.map((row) => row[0])).size).toBe(MATRIX.length);
    for (const row of MATRIX) expect(row.length - 2).toBe(CALLERS.length);
  });

  for (const [endpoint, build, ...expected] of MATRIX) {
    it(endpoint, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const [i, caller] of CALLERS.entries()) {
        const { header, me } = await authFor(caller);
        const res = await send(await build(me), header);
        got[caller] = res.status;
        want[caller] = expected[i];
        if (res.status >= 400) {
          expect(typeof res.body.detail, `${endpoint} as ${caller}`).toBe('string');
          expect(res.body.detail.length).toBeGreaterThan(0);
        }
      }
      expect(got).toEqual(want);
    });
  }
});

describe('refusals carry the right Spanish detail', () => {
  it('an expired token says the session expired; a revoked or deleted one that it is no longer valid', async () => {
    const expired = await send({ method: 'get', path: '/api/tasks' }, (await authFor('expired')).header);
    expect(expired.body.detail).toBe('Tu sesión ha caducado. Inicia sesión de nuevo');
    for (const kind of ['revoked', 'deleted'] as const) {
      const res = await send({ method: 'get', path: '/api/tasks' }, (await authFor(kind)).header);
      expect(res.body.detail).toBe('Tu sesión ya no es válida. Inicia sesión de nuevo');
    }
    const forged = await send({ method: 'get', path: '/api/tasks' }, (await authFor('forged')).header);
    expect(forged.body.detail).toBe('No autorizado');
    const malformed = await api().get('/api/tasks').set('Authorization', 'Basic abc');
    expect(malformed.status).toBe(401);
  });

  it('a token signed with another algorithm (none) is refused', async () => {
    const { user } = await makeUser('admin');
    const iat = Math.floor(nowMs() / 1000);
    const token = jwt.sign({ sub: user.id, tv: 0, iat, exp: iat + 3600 }, '', { algorithm: 'none' });
    expect((await api().get('/api/tasks').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });

  it('a pending account cannot log in (403) and a rejected/unapproved token is refused', async () => {
    const pending = await makeUser('conductor', { approved: false });
    const res = await api().post('/api/auth/login').send({ email: pending.user.email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Tu cuenta está pendiente de aprobación por el administrador');
    expect((await api().get('/api/tasks').set(pending.auth)).status).toBe(401);
  });

  it('a role change takes effect at once: the old token is refused', async () => {
    const admin = await makeUser('admin');
    const target = await makeUser('manager');
    const changed = await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: target.user.id, new_role: 'conductor' });
    expect(changed.status).toBe(200);
    expect((await api().get('/api/admin/reports/deficiencies').set(target.auth)).status).toBe(401);
  });
});

describe('the role gate comes before validation', () => {
  // A forbidden role learns nothing about the input rules: invalid bodies, queries and ids still get 403.
  const cases: [Role, Req][] = [
    ['conductor', { method: 'post', path: '/api/tasks', body: { title: 42 } }],
    ['conductor', { method: 'delete', path: '/api/tasks/no-es-un-id' }],
    ['conductor', { method: 'get', path: '/api/tasks/no-es-un-id/eligible-drivers' }],
    ['conductor', { method: 'get', path: '/api/admin/search/tasks?search_type=nada' }],
    ['gestor', { method: 'post', path: '/api/tasks/no-es-un-id/self-assign' }],
    ['gestor', { method: 'post', path: '/api/tasks/no-es-un-id/return', body: { reason: 'nada' } }],
    ['gestor', { method: 'post', path: '/api/timeclock/punch?clock_type=nada' }],
    ['gestor', { method: 'get', path: '/api/admin/reports/deficiencies?period=nunca' }],
    ['gestor', { method: 'get', path: '/api/admin/timeclock/export-excel' }],
    ['manager', { method: 'post', path: '/api/admin/approve-user', body: { user_id: 'x' } }],
    ['manager', { method: 'post', path: '/api/admin/update-user-role', body: { new_role: 'rey' } }],
    ['manager', { method: 'delete', path: '/api/admin/delete-user/no-es-un-id' }],
    ['manager', { method: 'get', path: '/api/admin/system/logs?limit=abc' }],
    ['manager', { method: 'get', path: '/api/admin/analytics/export-excel?date_from=ayer' }],
  ];
  for (const [role, req] of cases) {
    it(`${role}: ${req.method.toUpperCase()} ${req.path}`, async () => {
      const res = await send(req, (await authFor(role)).header);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('No tienes permiso para esta acción');
      expect((await send(req)).status).toBe(401);
    });
  }
});
