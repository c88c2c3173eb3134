// The same tables as ./schema.ts, for PostgreSQL (CONTRACT §18). drizzle schemas are per engine
// (`sqlite-core` and `pg-core` builders cannot be shared), so there are two: schema.ts for SQLite, this
// one for PostgreSQL, with the same table, column and index names. tests/unit/schema-parity.test.ts keeps
// them equal (columns, nullability, defaults, primary keys, foreign keys, indexes): change both together,
// then `npm run db:generate` and `npm run db:generate:pg`.
//
// Type mapping: epoch-ms times → bigint, read and written as a Date like SQLite's `timestamp_ms`;
// integer booleans → boolean; JSON kept as text, read and written as its value like SQLite's
// `text({ mode: 'json' })`; auto-increment ids → bigserial. So both schemas give the services the same row
// types (tests/unit/schema-parity.test.ts checks that too).
//
// For rows that reach the services through this schema, a bigint column arrives from node-postgres as a
// string: the custom types convert it.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  ApiScope,
  WebhookDeliveryStatus,
  WebhookEvent,
  HoldSource,
  EscalationRule,
  ProofKind,
  Shift,
  ClockType,
  LoadState,
  LocationKind,
  LogType,
  NotificationType,
  Priority,
  Role,
  TaskEventType,
  TaskStatus,
  TaskTitle,
  TrailerEventKind,
  TrailerKind,
  VehicleType,
} from '@shared/enums';

/** Epoch milliseconds in a bigint column, a Date in JavaScript (SQLite's `timestamp_ms`). */
const ms = customType<{ data: Date; driverData: string | number }>({
  dataType: () => 'bigint',
  toDriver: (value) => value.getTime(),
  fromDriver: (value) => new Date(Number(value)),
});
/** A JSON value kept as text (SQLite's `text({ mode: 'json' })`). */
const jsonText = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'text',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => JSON.parse(value) as T,
  })(name);
/** Bytes (SQLite's `blob` in buffer mode): node-postgres reads and writes a bytea as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const serialId = () => bigserial('id', { mode: 'number' }).primaryKey();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull(),
    isApproved: boolean('is_approved').notNull().default(false),
    isOnline: boolean('is_online').notNull().default(false),
    taskTypes: jsonText<VehicleType[]>('task_types')
      .notNull()
      .default(sql`'[]'`),
    movementsCount: integer('movements_count').notNull().default(0),
    tokenVersion: integer('token_version').notNull().default(0),
    /** Set by an admin's password reset: until changed, the token only allows change-password. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Latest of clock-in, last completion, last return, coming online: the engine's "idle longest". */
    idleSince: ms('idle_since'),
    lastActivityAt: ms('last_activity_at'),
    createdAt: ms('created_at').notNull(),
    approvedAt: ms('approved_at'),
    deletedAt: ms('deleted_at'),
  },
  (t) => [
    // Email is unique among live accounts only: a deleted user's email is free again.
    uniqueIndex('users_email_live')
      .on(t.email)
      .where(sql`deleted_at IS NULL`),
    index('users_role').on(t.role, t.isApproved, t.isOnline),
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    title: text('title').$type<TaskTitle>().notNull(),
    description: text('description'),
    origin: text('origin').notNull(),
    destination: text('destination').notNull(),
    trailerId: text('trailer_id').notNull(),
    /** CONTRACT §19: the plate's key (plateKey(), shared/text.ts): what "one trailer" means. */
    trailerKey: text('trailer_key').notNull(),
    priority: text('priority').$type<Priority>().notNull().default('normal'),
    status: text('status').$type<TaskStatus>().notNull().default('bolsa_trabajo'),
    vehicleType: text('vehicle_type').$type<VehicleType>().notNull().default('semiremolque'),
    assignedTo: text('assigned_to').references(() => users.id),
    createdBy: text('created_by').references(() => users.id),
    /** Who was credited a movement when it was completed (taken back on reopen). */
    creditedTo: text('credited_to').references(() => users.id),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
    assignedAt: ms('assigned_at'),
    completedAt: ms('completed_at'),
    statusSince: ms('status_since').notNull(),
    returnReason: text('return_reason'),
    /** The driver who last returned it and when: not auto-assigned back to them for 30 min. */
    returnedBy: text('returned_by').references(() => users.id),
    returnedAt: ms('returned_at'),
    /** Set once, by the first matching attempt: null = not tried yet; true = no driver had its type. */
    noDriversAvailable: boolean('no_drivers_available'),
    /** On hold (CONTRACT §15): never auto-assigned nor claimable until staff release it. */
    onHold: boolean('on_hold').notNull().default(false),
    holdReason: text('hold_reason'),
    /** CONTRACT §19 "Damage": who held it (null when not held); clearing a damage releases only `damage`. */
    holdSource: text('hold_source').$type<HoldSource>(),
    /** The latest driver return's reason, kept until the task is completed (the driver's card shows it). */
    lastReturnReason: text('last_return_reason'),
    /** CONTRACT §17: the catalogue places origin and destination stand for; null for free text. */
    originLocationId: text('origin_location_id').references(() => locations.id),
    destinationLocationId: text('destination_location_id').references(() => locations.id),
    /** CONTRACT §19: the trailer's load state once this move is completed (applied to its record then). */
    loadStateAfter: text('load_state_after').$type<LoadState>(),
    /** CONTRACT §20: when the move must be done (null: no deadline). */
    dueAt: ms('due_at'),
    /** CONTRACT §20: seconds after due_at it was completed (0 on time; null without deadline or not completed). */
    lateS: integer('late_s'),
    /** CONTRACT §20 "Proof of the move": how the completion was proven (null while not completed). */
    proof: text('proof').$type<ProofKind>(),
    /** CONTRACT §20: where the driver really left the trailer when not at the destination (null: at it). */
    droppedAtLocationId: text('dropped_at_location_id').references(() => locations.id),
    /** CONTRACT §21: the caller's own reference (a WMS order, a TMS departure); null without one. */
    externalRef: text('external_ref'),
    /** CONTRACT §21: the API client that created it (`created_by` is null then). */
    createdByClientId: text('created_by_client_id').references(() => apiClients.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    deletedAt: ms('deleted_at'),
  },
  (t) => [
    index('tasks_status').on(t.status, t.priority, t.createdAt),
    index('tasks_created').on(t.createdAt),
    // The board's version (services/board.ts): the newest change, one index probe.
    index('tasks_updated').on(t.updatedAt),
    index('tasks_assigned_at').on(t.assignedAt),
    index('tasks_completed').on(t.completedAt),
    // The indicators' range scans (services/indicators.ts) read every column they need from these, not
    // from the rows: the completions' times, deadline and proof, the assignments' times and task.
    index('tasks_completed_facts')
      .on(t.completedAt, t.assignedAt, t.dueAt, t.lateS, t.proof)
      .where(sql`deleted_at IS NULL`),
    index('tasks_assigned_facts')
      .on(t.assignedAt, t.createdAt, t.id)
      .where(sql`deleted_at IS NULL`),
    index('tasks_trailer').on(t.trailerKey, t.completedAt),
    // The open task of a trailer (CONTRACT §19): one per plate key, checked under the record's lock.
    index('tasks_open_trailer_key')
      .on(t.trailerKey)
      .where(sql`status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL`),
    index('tasks_assignee').on(t.assignedTo, t.status),
    // Pool tasks the engine has not tried yet: its no-driver round touches only these.
    index('tasks_untried')
      .on(t.createdAt)
      .where(sql`status = 'bolsa_trabajo' AND deleted_at IS NULL AND no_drivers_available IS NULL`),
    // The database itself refuses two open tasks for a trailer and two active tasks for a driver.
    uniqueIndex('tasks_open_trailer')
      .on(t.trailerId)
      .where(sql`status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL`),
    uniqueIndex('tasks_active_driver')
      .on(t.assignedTo)
      .where(sql`status = 'en_proceso' AND deleted_at IS NULL`),
    // The open tasks heading to a place (CONTRACT §17: its incoming trailers, part of its occupancy).
    index('tasks_incoming')
      .on(t.destinationLocationId)
      .where(sql`status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL`),
    // CONTRACT §21 `external_ref`: one open task per reference and caller (an API client, or a staff user),
    // so two racing creates are one 201 and one 200.
    uniqueIndex('tasks_open_external_ref_client')
      .on(t.createdByClientId, t.externalRef)
      .where(
        sql`external_ref IS NOT NULL AND created_by_client_id IS NOT NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL`,
      ),
    uniqueIndex('tasks_open_external_ref_user')
      .on(t.createdBy, t.externalRef)
      .where(
        sql`external_ref IS NOT NULL AND created_by_client_id IS NULL AND status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL`,
      ),
    // `GET /tasks?external_ref=`: any status or age.
    index('tasks_external_ref')
      .on(t.externalRef)
      .where(sql`external_ref IS NOT NULL`),
  ],
);

/**
 * The yard's places (CONTRACT §17). `name_key` is the name's placeKey() (shared/text.ts), what task texts
 * are matched by; the code, upper-case, is matched by the text's key upper-cased. Deactivated, never
 * deleted: old tasks keep pointing at them.
 */
export const locations = pgTable(
  'locations',
  {
    id: text('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    kind: text('kind').$type<LocationKind>().notNull(),
    zone: text('zone').notNull(),
    capacity: integer('capacity').notNull().default(1),
    x: integer('x').notNull().default(0),
    y: integer('y').notNull().default(0),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
    deactivatedAt: ms('deactivated_at'),
  },
  (t) => [
    uniqueIndex('locations_code').on(t.code),
    // Two active places with one name would make a task's text ambiguous.
    uniqueIndex('locations_name_live')
      .on(t.nameKey)
      .where(sql`deactivated_at IS NULL`),
  ],
);

/**
 * The trailers (CONTRACT §19): one record per trailer ever seen, keyed by its plate key, `trailer_id` the
 * first spelling seen. Where it stands (`location_id` since `since`, null: not in the yard) is kept in
 * step by services/yard.ts: the later of its latest completed move and its latest positional event
 * (`placed_at`: a staff correction, `leave`, the gate), settled inside the transaction that changes either.
 */
export const trailers = pgTable(
  'trailers',
  {
    trailerKey: text('trailer_key').primaryKey(),
    trailerId: text('trailer_id').notNull(),
    kind: text('kind').$type<TrailerKind>().notNull().default('otro'),
    loadState: text('load_state').$type<LoadState>().notNull().default('desconocido'),
    carrier: text('carrier'),
    seal: text('seal'),
    reference: text('reference'),
    adr: boolean('adr').notNull().default(false),
    reeferSetpointC: doublePrecision('reefer_setpoint_c'),
    damaged: boolean('damaged').notNull().default(false),
    damageNote: text('damage_note'),
    notes: text('notes'),
    locationId: text('location_id').references(() => locations.id),
    since: ms('since'),
    /** The completed move that brought it where it stands (null: a positional event did, or none). */
    taskId: text('task_id'),
    /** The latest positional event (correction, leave, gate): it wins over moves completed before it. */
    placedAt: ms('placed_at'),
    version: integer('version').notNull().default(1),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    index('trailers_location').on(t.locationId),
    // The board's and the yard's versions read the newest record change (max(updated_at)).
    index('trailers_updated').on(t.updatedAt),
  ],
);

/** A trailer's positional history besides its moves (CONTRACT §19): corrections, leave, the gate. */
export const trailerEvents = pgTable(
  'trailer_events',
  {
    id: serialId(),
    trailerKey: text('trailer_key').notNull(),
    kind: text('kind').$type<TrailerEventKind>().notNull(),
    /** Where it put the trailer (null: out of the yard). */
    locationId: text('location_id').references(() => locations.id),
    note: text('note'),
    actorId: text('actor_id').references(() => users.id),
    at: ms('at').notNull(),
  },
  (t) => [index('trailer_events_trailer').on(t.trailerKey, t.at)],
);

/** Login sessions (CONTRACT §14): open while refreshed within 12 h and not ended. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: ms('created_at').notNull(),
    refreshedAt: ms('refreshed_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    endedAt: ms('ended_at'),
  },
  (t) => [index('sessions_user').on(t.userId, t.endedAt)],
);

export const taskEvents = pgTable(
  'task_events',
  {
    id: serialId(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id),
    type: text('type').$type<TaskEventType>().notNull(),
    /** Who did it; null when the system (auto-assignment) did. */
    actorId: text('actor_id').references(() => users.id),
    /** The driver concerned (assigned, returned, completed), if any. */
    driverId: text('driver_id').references(() => users.id),
    fromStatus: text('from_status').$type<TaskStatus>(),
    toStatus: text('to_status').$type<TaskStatus>(),
    reason: text('reason'),
    at: ms('at').notNull(),
  },
  (t) => [index('task_events_task').on(t.taskId, t.at), index('task_events_type').on(t.type, t.at)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').$type<NotificationType>().notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    taskId: text('task_id'),
    /** The account a `user_pending` notice is about (no FK: a rejected registration's row is deleted). */
    subjectUserId: text('subject_user_id'),
    isRead: boolean('is_read').notNull().default(false),
    playSound: boolean('play_sound').notNull().default(false),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('notifications_user').on(t.userId, t.isRead, t.createdAt)],
);

export const punches = pgTable(
  'punches',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    clockType: text('clock_type').$type<ClockType>().notNull(),
    timestamp: ms('timestamp').notNull(),
    /** Sent from the phone's offline queue with its own time (CONTRACT §16). */
    offline: boolean('offline').notNull().default(false),
    /** Added by a supervisor's correction (CONTRACT §15). */
    corrected: boolean('corrected').notNull().default(false),
    /** Removed by a supervisor's correction: the row stays for the history, out of every figure. */
    deletedAt: ms('deleted_at'),
  },
  (t) => [index('punches_user').on(t.userId, t.timestamp), index('punches_time').on(t.timestamp)],
);

/** Supervisors' punch corrections (CONTRACT §15): who added or removed which punch, when and why. */
export const punchCorrections = pgTable(
  'punch_corrections',
  {
    id: serialId(),
    punchId: text('punch_id')
      .notNull()
      .references(() => punches.id),
    action: text('action').$type<'added' | 'removed'>().notNull(),
    reason: text('reason').notNull(),
    actorId: text('actor_id')
      .notNull()
      .references(() => users.id),
    at: ms('at').notNull(),
  },
  (t) => [index('punch_corrections_punch').on(t.punchId)],
);

export const presenceIntervals = pgTable(
  'presence_intervals',
  {
    id: serialId(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    startedAt: ms('started_at').notNull(),
    /** null while the user is still online. */
    endedAt: ms('ended_at'),
  },
  (t) => [index('presence_user').on(t.userId, t.startedAt), index('presence_open').on(t.endedAt)],
);

export const activityLog = pgTable(
  'activity_log',
  {
    id: serialId(),
    type: text('type').$type<LogType>().notNull(),
    userId: text('user_id'),
    userName: text('user_name').notNull(),
    action: text('action').notNull(),
    details: text('details').notNull(),
    timestamp: ms('timestamp').notNull(),
  },
  (t) => [index('activity_time').on(t.timestamp)],
);

/**
 * `Idempotency-Key` answers (CONTRACT §23): the first answer of a POST that ran its effect, stored in the
 * same transaction as the effect, replayed for 24 h to the same request (same fingerprint). A key belongs
 * to its principal: `user:<id>` (an API client's would be `api:<id>`, with its own cap), so no foreign key.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    /** SHA-256 (hex) of the method, the path with its query string and the raw body. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.principal, t.key] }),
    index('idempotency_created').on(t.createdAt),
    // The cap of keys a principal may use in 24 h counts along this one.
    index('idempotency_principal').on(t.principal, t.createdAt),
  ],
);

/** Web Push subscriptions of drivers' phones (CONTRACT §16); one that answers 404/410 is deleted. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [uniqueIndex('push_endpoint').on(t.endpoint), index('push_user').on(t.userId)],
);

/**
 * Secrets and keys the server generates once and every node must share (CONTRACT §18): on PostgreSQL the
 * JWT secret and the VAPID key pair when the environment gives none. SQLite keeps them as files in the
 * data folder, next to the database.
 */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// ---- Many nodes (CONTRACT §18) ------------------------------------------------------------------
// Presence is decided across every node serving the yard (one with SQLite): each node keeps who is
// present through it in memory and here, one row per user; a user is online while a live node (its
// heartbeat recent) holds a row for them. users.is_online and presence_intervals follow the whole.

export const serverNodes = pgTable('server_nodes', {
  id: text('id').primaryKey(),
  startedAt: ms('started_at').notNull(),
  heartbeatAt: ms('heartbeat_at').notNull(),
});

export const nodePresence = pgTable(
  'node_presence',
  {
    nodeId: text('node_id')
      .notNull()
      .references(() => serverNodes.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    since: ms('since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.userId] }), index('node_presence_user').on(t.userId)],
);

/** The login and registration limits (CONTRACT §4, §14): one count per key for every node. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ms('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset').on(t.resetAt)],
);

/**
 * The gate's photos (CONTRACT §19): a JPEG re-encoded by the server (upright, longest side 1600, no
 * metadata), kept here so every node serves it. Owned by the user or the API client that uploaded it: only
 * its owner may attach it. Unattached until an entry claims it (`attached_at`,
 * `attached_to` the visit); unattached ones go after 24 h, attached ones 365 days after they were attached.
 */
export const gatePhotos = pgTable(
  'gate_photos',
  {
    id: text('id').primaryKey(),
    /** The user who took it; null when an API key's client uploaded it. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The API client (CONTRACT §21) whose key uploaded it; null for a user's photo. */
    ownerClientId: text('owner_client_id').references(() => apiClients.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Bytes of the stored JPEG. */
    size: integer('size').notNull(),
    createdAt: ms('created_at').notNull(),
    attachedAt: ms('attached_at'),
    attachedTo: text('attached_to'),
  },
  (t) => [
    index('gate_photos_owner').on(t.ownerId),
    index('gate_photos_owner_client').on(t.ownerClientId),
    index('gate_photos_created').on(t.createdAt),
    index('gate_photos_attached').on(t.attachedAt),
    // Exactly one owner: a user or an API client (bare names: SQLite's rebuild creates the table under
    // another name, then renames it).
    check('gate_photos_one_owner', sql`(owner_id IS NULL) <> (owner_client_id IS NULL)`),
  ],
);

/**
 * The gate's visits (CONTRACT §19 "Gate visits"): one truck's stay, from its entry to its exit (null while
 * open). Plates and the carrier are kept as typed (identity key) with their folded keys beside them: the
 * trailer's plate key (what "one trailer" means) and the carrier's key (the waiting-times report groups by it).
 */
export const gateVisits = pgTable(
  'gate_visits',
  {
    id: text('id').primaryKey(),
    truckPlate: text('truck_plate').notNull(),
    carrier: text('carrier').notNull(),
    carrierKey: text('carrier_key').notNull(),
    driverName: text('driver_name'),
    appointmentAt: ms('appointment_at'),
    enteredAt: ms('entered_at').notNull(),
    exitedAt: ms('exited_at'),
    droppedTrailerId: text('dropped_trailer_id'),
    droppedTrailerKey: text('dropped_trailer_key'),
    pickedTrailerId: text('picked_trailer_id'),
    pickedTrailerKey: text('picked_trailer_key'),
    entrySeal: text('entry_seal'),
    exitSeal: text('exit_seal'),
    sealMismatch: boolean('seal_mismatch').notNull().default(false),
    enteredBy: text('entered_by').references(() => users.id, { onDelete: 'set null' }),
    exitedBy: text('exited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('gate_visits_entered').on(t.enteredAt),
    index('gate_visits_exited').on(t.exitedAt),
    index('gate_visits_dropped').on(t.droppedTrailerKey, t.enteredAt),
    index('gate_visits_picked').on(t.pickedTrailerKey, t.exitedAt),
  ],
);

/**
 * CONTRACT §20 "Escalation": the first time a task met a rule. The primary key makes it once per task and rule
 * across nodes: the node whose insert lands is the one that notifies.
 */
export const taskEscalations = pgTable(
  'task_escalations',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    rule: text('rule').$type<EscalationRule>().notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.rule] }), index('task_escalations_created').on(t.createdAt)],
);

/** CONTRACT §20 "Shift handover": a note to the next shift, kept under the shift and Madrid date it was written in. */
export const handoverNotes = pgTable(
  'handover_notes',
  {
    id: text('id').primaryKey(),
    text: text('text').notNull(),
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The author's name when written: the note outlives a deleted account. */
    authorName: text('author_name').notNull(),
    shift: text('shift').$type<Shift>().notNull(),
    /** The shift's Madrid date, YYYY-MM-DD (a night shift belongs to the day it starts). */
    date: text('date').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('handover_notes_shift').on(t.date, t.shift, t.createdAt)],
);

/**
 * CONTRACT §21 "API clients": another system's key. Only the key's SHA-256 is kept (the key is shown once);
 * `key_prefix` is what the list shows of it.
 */
export const apiClients = pgTable(
  'api_clients',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** The name folded (case, accents, spaces): one integration per name. */
    nameKey: text('name_key').notNull(),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    scopes: jsonText<ApiScope[]>('scopes').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: ms('created_at').notNull(),
    /** Written at most once a minute. */
    lastUsedAt: ms('last_used_at'),
    /** When the admin revoked it: the key stops at once; the row stays, so its tasks keep `API · {name}`. */
    revokedAt: ms('revoked_at'),
  },
  (t) => [
    // A revoked integration's name may be given again.
    uniqueIndex('api_clients_name')
      .on(t.nameKey)
      .where(sql`revoked_at IS NULL`),
    uniqueIndex('api_clients_key').on(t.keyHash),
  ],
);

/**
 * CONTRACT §21 "API clients": requests a minute per key across nodes, counted by rate-limiter-flexible's
 * store (its table: key, points, expire).
 */
export const apiRateLimits = pgTable('api_rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: ms('expire'),
});

/**
 * CONTRACT §21 "Webhooks": an endpoint of another system and the events it takes. `failing_since`: the first
 * failed attempt since the last success (24 h of it deactivates the endpoint); `lease_*`: the node sending
 * for it now (one delivery in flight per endpoint, one node at a time).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonText<WebhookEvent[]>('events').notNull(),
    active: boolean('active').notNull().default(true),
    secret: text('secret').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
    failingSince: ms('failing_since'),
    disabledAt: ms('disabled_at'),
    leaseOwner: text('lease_owner'),
    leaseUntil: ms('lease_until'),
  },
  (t) => [index('webhooks_active').on(t.active)],
);

/**
 * CONTRACT §21 "Delivery": the outbox. A row is written inside the transaction of the change it tells
 * (never one without the other) and sent after the commit, in `id` order per endpoint. `subject`: the task
 * id or trailer plate key its order is kept for; `payload`: the event's body as sent, a snapshot at commit.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serialId(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    type: text('type').$type<WebhookEvent>().notNull(),
    subject: text('subject').notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: ms('next_attempt_at'),
    createdAt: ms('created_at').notNull(),
    deliveredAt: ms('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_queue').on(t.webhookId, t.status, t.id),
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_created').on(t.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type PunchRow = typeof punches.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;
export type TrailerRow = typeof trailers.$inferSelect;
export type GateVisitRow = typeof gateVisits.$inferSelect;
