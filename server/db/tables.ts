// The tables the services query, those of the engine this process runs on (./engine.ts). Both schemas
// declare the same tables, columns and row types (tests/unit/schema-parity.test.ts); the services are
// typed against the PostgreSQL one, whose query builders only offer what both engines run through
// `await` (no SQLite-only .all()/.get()/.run(), no .prepare()).
import * as postgres from './schema-pg';
import * as sqlite from './schema';
import { isPostgres } from './engine';

const chosen = (isPostgres ? postgres : sqlite) as unknown as typeof postgres;

export const {
  users,
  tasks,
  sessions,
  taskEvents,
  notifications,
  punches,
  punchCorrections,
  presenceIntervals,
  activityLog,
  idempotencyKeys,
  pushSubscriptions,
  appSettings,
  serverNodes,
  nodePresence,
  rateLimits,
  locations,
  gatePhotos,
  trailers,
  trailerEvents,
  gateVisits,
  handoverNotes,
  taskEscalations,
  apiClients,
  apiRateLimits,
  webhooks,
  webhookDeliveries,
} = chosen;

export type {
  UserRow,
  SessionRow,
  TaskRow,
  NotificationRow,
  PunchRow,
  LocationRow,
  TrailerRow,
  GateVisitRow,
} from './schema-pg';
