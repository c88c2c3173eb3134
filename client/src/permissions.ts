// What each role sees in the UI (SPEC §6). The server enforces the same rules on every endpoint
// (server/policies.ts); this table only decides which buttons, columns and views to show.
import { VIEWS, type Role, type View } from '@shared/enums';
import { FINISHED_VIEWERS } from '@shared/visibility';

const STAFF: readonly Role[] = ['admin', 'manager', 'gestor'];
const SUPERVISORS: readonly Role[] = ['admin', 'manager'];
const ADMIN: readonly Role[] = ['admin'];

export const VIEW_ROLES: Record<View, readonly Role[]> = {
  dashboard: STAFF,
  yard: STAFF, // CONTRACT §17: the Patio map, also at /patio
  gate: STAFF, // CONTRACT §19: the Portería, also at /porteria
  handover: STAFF, // CONTRACT §20, §24: the Relevo de turno, also at /relevo
  searcher: STAFF,
  timecontrol: SUPERVISORS,
  reports: SUPERVISORS,
  indicators: SUPERVISORS, // CONTRACT §22, §24
  analytics: ADMIN,
  users: ADMIN,
  locations: SUPERVISORS, // CONTRACT §17: the location catalogue
  'admin-panel': ADMIN,
};

const CAPABILITIES = {
  /** The driver screen (active task, Swap panel, time clock) instead of the staff views. */
  driverScreen: ['conductor'],
  createTasks: STAFF,
  /** Delete button on cards and dragging to any column. */
  manageTasks: STAFF,
  seeFinishedColumn: FINISHED_VIEWERS,
  seeRanking: SUPERVISORS,
  approveUsers: ADMIN,
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export const can = (role: Role, capability: Capability): boolean =>
  (CAPABILITIES[capability] as readonly Role[]).includes(role);

/** The header's view buttons for a role, in SPEC §2 order. */
export const viewsFor = (role: Role): View[] => VIEWS.filter((v) => VIEW_ROLES[v].includes(role));
