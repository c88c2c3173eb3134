// The changes one transaction made, typed (LAYOUT.md, revision 3: "one writer, one change log"). Code that
// changes something records what it changed here and does nothing else about it: the processors
// (./processors/) read the set — before the commit, inside the transaction, and after it — and do the
// pushes, the Web Push, the caches and the yard's bookkeeping. Every transaction level has its set
// (db/index.ts; record() in ./commit.ts reaches the running one); docs/TASKS.md › The change log.
import type { RevokeReason, Shift, TaskEventType, TrailerEventKind, WebhookEvent } from '@shared/enums';
import type {
  AdminUser,
  GateVisit,
  Notification,
  PushPayload,
  Task,
  TimeclockStatus,
  Trailer,
} from '@shared/schemas';
import type { TaskRow } from '../db/tables';
import { now } from '../clock';
import { placeOfRow, type TaskPlace } from '../tasks/visibility';

/** What the yard sees of a task (CONTRACT §17). */
export type YardFacts = Pick<TaskRow, 'trailerKey' | 'status' | 'originLocationId' | 'destinationLocationId'>;

export interface TaskChange {
  kind: 'created' | 'updated' | 'deleted';
  /** Where it was before the transaction (its rooms then): a task that left a room is told to go. */
  before?: TaskPlace;
}

/** Sessions that ended (CONTRACT §14): their sockets are told why, then dropped, on every node. */
export type SessionsRevoked = { reason: RevokeReason } & (
  | { scope: 'session'; sid: string }
  | { scope: 'user'; userId: string }
  /** The user's other sessions (their own password change): all but `keptSid`. */
  | { scope: 'user-but'; userId: string; keptSid: string }
  /** Everybody's sessions but this user's (clear-all-tokens). */
  | { scope: 'all-but'; userId: string }
);

/** A change to people and their things, kept in the order it was recorded. */
export type PeopleChange =
  /** An account as the admins' Usuarios list shows it now (approved, role, task types, name, online…). */
  | { kind: 'user'; user: AdminUser }
  /** An account left the lists (deleted, or a rejected registration). */
  | { kind: 'user-removed'; userId: string }
  /** How many accounts wait for approval now. */
  | { kind: 'users-pending'; count: number }
  /** A driver's task types are these now: their sockets' type rooms follow. */
  | { kind: 'task-types'; userId: string; taskTypes: readonly string[] }
  /** …and the pool tasks they gained and lost with them. */
  | { kind: 'pool-seen'; userId: string; gained: Task[]; lostIds: string[] }
  /** A notification stored; `push`: also to the user's phones by Web Push (CONTRACT §16). */
  | { kind: 'notification'; userId: string; notification: Notification; push?: PushPayload }
  /** Notifications marked read on the user's behalf. */
  | { kind: 'notifications-read'; userId: string; ids: string[] }
  /** A driver's time clock status (a punch, a correction). */
  | { kind: 'timeclock'; userId: string; status: TimeclockStatus }
  /** A user left presence on every node (deleted, revoked): the other nodes drop what they hold. */
  | { kind: 'presence-forgotten'; userId: string }
  /** CONTRACT §20: the notes of a shift changed (one written or deleted). */
  | { kind: 'handover-notes'; shift: Shift; date: string };

/** What befell a trailer: its positional events (trailer_events), a finished move's, its damage. */
export type TrailerHappening = TrailerEventKind | 'moved' | 'damaged' | 'damage_cleared';

/**
 * CONTRACT §21 "Events": what other systems are told of, in the order it happened (the webhooks' outbox,
 * services/webhooks/events.ts, maps each to its WEBHOOK_EVENTS name in one place). Trailers go by plate key;
 * `from`/`to`: the places (location ids) it left and reached, null outside the yard; left out when it did
 * not move (damage): where it stands then.
 */
export type Happening =
  | { on: 'task'; taskId: string; type: TaskEventType }
  | { on: 'trailer'; trailerKey: string; type: TrailerHappening; from?: string | null; to?: string | null }
  | { on: 'visit'; visitId: string; type: 'opened' | 'closed' };

/** A webhook subscribed to some events (CONTRACT §21): what the outbox writes rows for. */
export interface ActiveWebhook {
  id: string;
  events: WebhookEvent[];
}

export class ChangeSet {
  /** The tasks changed, the first change of each deciding its kind and its "before". */
  readonly tasks = new Map<string, TaskChange>();
  /** The dashboard figures changed (counts per status, busy drivers, movements). */
  figures = false;
  /** Set when a task entered the pool or a driver was freed: the engine runs before the commit. */
  engine = false;
  /**
   * Set when a driver may now get work without a task having moved (a clock-in, repaired task types): the
   * engine's round starts after the commit (processors/assignment.ts).
   */
  roundAfter = false;
  /** CONTRACT §17: places whose occupancy may have moved, trailers whose position may have. */
  readonly yardPlaces = new Set<string>();
  readonly yardTrailers = new Set<string>();
  /** Trailers (plate keys) whose finished moves changed: their position is settled before the commit. */
  readonly settle = new Set<string>();
  /**
   * Places this transaction put trailers at without asking for room first (a gate entry): their room is
   * checked as the very last step before the commit, so their lock is held for the shortest time.
   */
  readonly roomChecks = new Set<string>();
  /** CONTRACT §19: trailers (plate keys) whose record changed: `trailer:changed` to staff. */
  readonly trailers = new Set<string>();
  /**
   * Trailers (plate keys) claimed for a task of this transaction (services/trailers.ts claimTrailers): no
   * other open task names them, so the trailers' processor has no other task of theirs to bump.
   */
  readonly claimed = new Set<string>();
  /** …their records as read at the end of the transaction (processors/sockets.ts). */
  readonly loadedTrailers = new Map<string, Trailer>();
  /** CONTRACT §19: gate visits opened or closed (ids, through happen()): `gate:changed` to staff. */
  readonly visits = new Set<string>();
  /** …as read at the end of the transaction (processors/sockets.ts). */
  readonly loadedVisits = new Map<string, GateVisit>();
  /** Sessions ended, in order. */
  readonly revoked: SessionsRevoked[] = [];
  /** Users, notifications, time clocks, presence: in the order recorded. */
  readonly people: PeopleChange[] = [];
  /** CONTRACT §21: what happened, in order, for the webhooks. */
  readonly happened: Happening[] = [];
  /** The webhooks whose outbox got rows before the commit: the sender is woken for them after it. */
  readonly webhooksQueued = new Set<string>();
  /** PostgreSQL: the active webhooks, as read on this transaction (services/webhooks/outbox.ts). */
  activeWebhooks: ActiveWebhook[] | undefined;
  /** The created and updated tasks as read at the end of the transaction (processors/sockets.ts). */
  readonly loaded = new Map<string, Task>();
  /** The created and updated tasks as they were pushed (answers reuse them). */
  readonly presented = new Map<string, Task>();
  /** One instant for the whole transaction: its rows, events and timestamps agree. */
  constructor(readonly at: Date = now()) {}

  created(id: string): void {
    this.tasks.set(id, { kind: 'created' });
    this.figures = true;
  }
  /** Call with the row as it was before the change (the first call of a transaction wins). */
  updated(before: TaskRow): void {
    if (!this.tasks.has(before.id))
      this.tasks.set(before.id, { kind: 'updated', before: placeOfRow(before) });
  }
  deleted(before: TaskRow): void {
    this.tasks.set(before.id, { kind: 'deleted', before: placeOfRow(before) });
    this.figures = true;
    this.yard(before, undefined);
  }

  /**
   * A task of the yard changed from `before` to `after` (either missing for a creation or a deletion):
   * the places it names and its trailer's place may show something else now; when a finished move
   * changed (completed, reopened, deleted, re-aimed), its trailer's position is settled before the commit.
   */
  yard(before: YardFacts | undefined, after: YardFacts | undefined): void {
    for (const t of [before, after]) {
      if (!t) continue;
      if (t.originLocationId) this.yardPlaces.add(t.originLocationId);
      if (t.destinationLocationId) this.yardPlaces.add(t.destinationLocationId);
      this.yardTrailers.add(t.trailerKey);
      if (t.status === 'finalizada') this.settle.add(t.trailerKey);
    }
  }

  /** Places whose occupancy or catalogue entry changed besides the tasks' own (a catalogue change). */
  yardPlacesChanged(ids: readonly string[]): void {
    for (const id of ids) this.yardPlaces.add(id);
  }

  /** Trailers were put at these places: refused at the commit if one now holds more than it can. */
  placesFilled(ids: readonly string[]): void {
    for (const id of ids) this.roomChecks.add(id);
  }

  /** A trailer's record changed (created, placed, edited): by its plate key. */
  trailerChanged(key: string): void {
    this.trailers.add(key);
  }

  /** Trailers claimed for a task of this transaction: the only open task each has is this transaction's. */
  trailersClaimed(keys: readonly string[]): void {
    for (const key of keys) this.claimed.add(key);
  }

  /** The dashboard figures changed (counts per status, busy drivers, movements). */
  figuresChanged(): void {
    this.figures = true;
  }

  /**
   * Something other systems may be told of (CONTRACT §21). Its trailer or visit is read at the end of the
   * transaction like any changed one (the snapshot the event carries).
   */
  happen(happening: Happening): void {
    this.happened.push(happening);
    if (happening.on === 'trailer') this.trailers.add(happening.trailerKey);
    if (happening.on === 'visit') this.visits.add(happening.visitId);
  }

  /** Sessions ended (sessions.ts endSession, endUserSessions; clear-all-tokens). */
  sessionsRevoked(revoked: SessionsRevoked): void {
    this.revoked.push(revoked);
  }

  /** Something about people changed (see PeopleChange). */
  person(change: PeopleChange): void {
    this.people.push(change);
  }

  /** Takes over what a nested step (a savepoint) recorded, once that step has succeeded. */
  absorb(step: ChangeSet): void {
    for (const [id, change] of step.tasks) if (!this.tasks.has(id)) this.tasks.set(id, change);
    this.figures ||= step.figures;
    this.engine ||= step.engine;
    for (const id of step.yardPlaces) this.yardPlaces.add(id);
    for (const id of step.yardTrailers) this.yardTrailers.add(id);
    for (const id of step.settle) this.settle.add(id);
    for (const id of step.roomChecks) this.roomChecks.add(id);
    for (const key of step.trailers) this.trailers.add(key);
    for (const key of step.claimed) this.claimed.add(key);
    for (const id of step.visits) this.visits.add(id);
    this.revoked.push(...step.revoked);
    this.people.push(...step.people);
    this.happened.push(...step.happened);
  }
}
