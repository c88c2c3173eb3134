// The one permission table (CONTRACT §12). Routes name an action; only this file says who may do it.
import type { ApiScope, Role } from '@shared/enums';

const STAFF: readonly Role[] = ['admin', 'manager', 'gestor'];
const ANY: readonly Role[] = ['admin', 'manager', 'gestor', 'conductor'];
const SUPERVISORS: readonly Role[] = ['admin', 'manager'];
const DRIVER: readonly Role[] = ['conductor'];
const ADMIN: readonly Role[] = ['admin'];

export const POLICY = {
  'session:use': ANY,
  'password:change': ANY, // the one action a password_change_required token allows
  'dashboard:read': ANY,
  'notifications:read': ANY,
  'tasks:read': ANY,
  'tasks:update': ANY, // conductors further limited by the SPEC §4 rules in the tasks service
  'tasks:create': STAFF,
  'tasks:delete': STAFF,
  'tasks:eligible-drivers': STAFF,
  'tasks:search': STAFF,
  'driver:tasks': DRIVER,
  'timeclock:use': DRIVER,
  'push:public-key': ANY, // CONTRACT §16: the VAPID key is public
  'push:subscribe': ANY, // one's own push subscriptions (CONTRACT §24: staff too)
  'timeclock:supervise': SUPERVISORS,
  'timeclock:correct': SUPERVISORS, // CONTRACT §15: adding or removing a driver's punch
  'reports:read': SUPERVISORS,
  'indicators:read': SUPERVISORS, // CONTRACT §24: GET /admin/indicators and its Excel
  'admin:users': ADMIN,
  'admin:analytics': ADMIN,
  'admin:system': ADMIN,
  'admin:webhooks': ADMIN, // CONTRACT §21: /admin/webhooks…
  'admin:api-clients': ADMIN, // CONTRACT §21: Sistema → Integraciones › Claves de API
  'locations:read': ANY, // CONTRACT §17: the catalogue feeds every form's autocomplete
  'locations:manage': SUPERVISORS, // the Ubicaciones view
  'yard:read': STAFF, // GET /yard, /yard/trailers and its export
  'yard:leave': STAFF, // marking a trailer gone
  'gate:photos:upload': ANY, // CONTRACT §24: staff, and drivers for a damage return
  'gate:photos:read': STAFF,
  'gate:read': STAFF, // CONTRACT §24: GET /gate/visits, /gate/suggestions
  'gate:write': STAFF, // POST /gate/entries, /gate/exits
  'trailers:read': STAFF, // CONTRACT §24: GET /trailers, /trailers/{id}
  'trailers:write': STAFF, // PUT /trailers/{id}, …/position (…/damage, …/clear-damage)
  'handover:read': STAFF, // CONTRACT §24: GET /handover and its Excel
  'handover:write': STAFF, // POST /handover/notes, DELETE /handover/notes/{id} (its author only)
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof POLICY;

/**
 * CONTRACT §21 "Scopes": what an API key needs for an action (it then acts as a manager, so POLICY still
 * applies). An action missing here is never a key's: the OpenAPI document lists exactly these routes.
 */
export const API_SCOPE: Partial<Record<Action, ApiScope>> = {
  'tasks:read': 'tasks:read',
  'tasks:search': 'tasks:read', // GET /admin/search/tasks, the one /admin route a key may call
  'tasks:create': 'tasks:write',
  'tasks:update': 'tasks:write',
  'tasks:delete': 'tasks:write',
  'yard:read': 'yard:read',
  'trailers:read': 'yard:read',
  'locations:read': 'yard:read',
  'gate:read': 'yard:read',
  'gate:write': 'gate:write',
  'gate:photos:upload': 'gate:write', // the key's client owns the photo (gate_photos.owner_client_id)
};

export const can = (role: Role, action: Action): boolean =>
  (POLICY[action] as readonly Role[]).includes(role);
