// The trailers (CONTRACT §19): one record per trailer ever seen, keyed by its plate key (plateKey(),
// shared/text.ts), created by the first task, edit or position that names it. Here: the record's lock and
// the one-open-task rule (tasks/apply.ts calls claimTrailers), the staff's reads, edits and corrections of
// where a trailer stands. Where it stands is settled by services/yard.ts (docs/GATE.md).
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { LoadState } from '@shared/enums';
import type { Trailer, TrailerDetail, UpdateTrailerData } from '@shared/schemas';
import { TRAILER_MOVES_MAX, TRAILER_SEARCH_MAX } from '@shared/constants';
import { ERR, TRAILER_ERR, TRAILER_FIELD_LABELS, TRAILER_LOG } from '@shared/labels';
import { identityKey, plateKey } from '@shared/text';
import { db, query, tx } from '../db';
import { forUpdate } from '../db/dialect';
import { locations, tasks, trailers, type TrailerRow } from '../db/tables';
import { now } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { loadTaskById, queryTasks } from '../presenters/tasks';
import { logActivity, type Actor } from './activity';
import { ensureRoom, placeTrailer } from './yard';
import { visitsOfTrailer } from './gate';
import { change } from '../tasks/change';
import { damageTrailerTasks, releaseDamageHolds } from '../tasks/commands/damage';
import { record } from '../changes/commit';
import { OPEN_TASK_SQL, openTaskSql } from '../tasks/visibility';

// ---- the record's lock and the one-open-task rule ------------------------------------------------------

/** A trailer a task is about to name while open: its plate as typed, and the task itself when it exists. */
export interface Claim {
  trailerId: string;
  /** The task being changed (its own open row does not count). */
  taskId?: string;
}

/**
 * Makes sure each of these trailers has its record (created with the spelling given: the first seen),
 * locks the records (PostgreSQL: SELECT … FOR UPDATE, in key order; SQLite's one writer is alone), and
 * refuses (409 `El remolque {trailer_id} ya tiene una tarea abierta`) a trailer that already has an open
 * task under another spelling or not, or that two of the claims name. The lock is what makes the check
 * race-safe: two creations for `R-1-A` and `r1a` are decided one after the other. Returns the keys whose
 * records were created (a `trailer:changed` each) and the damaged ones' notes (as locked: tasks entering
 * the pool are held for it, commands/damage.ts); the transaction's change set notes the claim.
 */
const marks = (n: number) => Array<string>(n).fill('?').join(', ');
// INDEXED BY: left alone, SQLite reads a list of several keys along tasks_status, walking every open task.
const BUSY_TRAILERS_SQL = (keys: number) =>
  `SELECT trailer_key AS key FROM tasks INDEXED BY tasks_open_trailer_key
    WHERE trailer_key IN (${marks(keys)}) AND ${OPEN_TASK_SQL}`;

export interface Claimed {
  /** Keys whose records this claim created. */
  created: string[];
  /** The claimed trailers that are damaged, with their damage notes. */
  damaged: Map<string, string>;
}

export async function claimTrailers(claims: readonly Claim[]): Promise<Claimed> {
  const damaged = new Map<string, string>();
  if (!claims.length) return { created: [], damaged };
  const byKey = new Map<string, Claim>();
  for (const c of claims) {
    const key = plateKey(c.trailerId);
    if (byKey.has(key)) throw conflict(ERR.trailerBusy(c.trailerId));
    byKey.set(key, c);
  }
  const keys = [...byKey.keys()].sort();
  const at = now();
  const created = (
    await db
      .insert(trailers)
      .values(
        keys.map((key) => ({
          trailerKey: key,
          trailerId: byKey.get(key)!.trailerId,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing({ target: trailers.trailerKey })
      .returning({ key: trailers.trailerKey })
  ).map((c) => c.key);
  // A record created just now is this transaction's until its commit (no other sees it, another insert of
  // its key waits for it), is not damaged and has no task: every task's trailer has had its record since
  // the records began (migrations 0011 / pg 0009), and records are never deleted. Only the others are
  // locked, read and checked, the check sent right behind the locking read (PostgreSQL runs it once the
  // locks are held: one round trip for both).
  const fresh = new Set(created);
  const existing = keys.filter((key) => !fresh.has(key));
  if (existing.length) {
    const except = claims.flatMap((c) => (c.taskId ? [c.taskId] : []));
    // The locking read leaves first (started here: a query builder runs only once asked), the check after
    // it: what the check reads is what the locks' previous holders committed.
    const locking = forUpdate(
      db
        .select({ key: trailers.trailerKey, damaged: trailers.damaged, note: trailers.damageNote })
        .from(trailers)
        .where(inArray(trailers.trailerKey, existing))
        .orderBy(asc(trailers.trailerKey)),
    ).execute();
    const checking = query<{ key: string }>(
      `${BUSY_TRAILERS_SQL(existing.length)}${except.length ? ` AND id NOT IN (${marks(except.length)})` : ''} LIMIT 1`,
      [...existing, ...except],
    );
    const [locked, [busy]] = await Promise.all([locking, checking]);
    for (const r of locked) if (r.damaged) damaged.set(r.key, r.note ?? '');
    if (busy) throw conflict(ERR.trailerBusy(byKey.get(busy.key)!.trailerId));
  }
  // Until the commit no other transaction may open a task for them (the records' locks, the one writer).
  record((changes) => changes.trailersClaimed(keys));
  return { created, damaged };
}

/** A completed move's `load_state_after` on its trailer's record (version + 1); whether it changed it. */
export async function setLoadState(key: string, loadState: LoadState): Promise<boolean> {
  const changed = await db
    .update(trailers)
    .set({ loadState, version: sql`${trailers.version} + 1`, updatedAt: now() })
    .where(and(eq(trailers.trailerKey, key), ne(trailers.loadState, loadState)))
    .returning({ key: trailers.trailerKey });
  return changed.length > 0;
}

// ---- reading ---------------------------------------------------------------------------------------------

type Place = { id: string; code: string; name: string } | null;

const iso = (d: Date) => d.toISOString();

export const presentTrailer = (r: TrailerRow, place: Place): Trailer => ({
  trailer_id: r.trailerId,
  kind: r.kind,
  load_state: r.loadState,
  carrier: r.carrier,
  seal: r.seal,
  reference: r.reference,
  adr: r.adr,
  reefer_setpoint_c: r.reeferSetpointC,
  damaged: r.damaged,
  damage_note: r.damageNote,
  notes: r.notes,
  in_yard: r.locationId !== null,
  location: r.locationId && place ? { id: place.id, code: place.code, name: place.name } : null,
  since: r.locationId && r.since ? iso(r.since) : null,
  version: r.version,
  updated_at: iso(r.updatedAt),
});

/** Records with where they stand. */
function selectTrailers() {
  return db
    .select({
      trailer: trailers,
      place: { id: locations.id, code: locations.code, name: locations.name },
    })
    .from(trailers)
    .leftJoin(locations, eq(locations.id, trailers.locationId));
}

/** These trailers' records by plate key (processors/sockets.ts: what `trailer:changed` carries). */
export async function loadTrailers(keys: readonly string[]): Promise<Map<string, Trailer>> {
  const found = new Map<string, Trailer>();
  if (!keys.length) return found;
  for (const r of await selectTrailers().where(inArray(trailers.trailerKey, [...keys])))
    found.set(r.trailer.trailerKey, presentTrailer(r.trailer, r.place));
  return found;
}

/** GET /trailers?q=: up to 20 records whose key starts with the text's key, then those that contain it. */
export async function searchTrailers(q: string | undefined): Promise<Trailer[]> {
  const key = plateKey(q ?? '');
  const pattern = key.replace(/[\\%_]/g, '\\$&');
  const starts = sql`${trailers.trailerKey} LIKE ${`${pattern}%`} ESCAPE '\\'`;
  const rows = await selectTrailers()
    .where(key ? sql`${trailers.trailerKey} LIKE ${`%${pattern}%`} ESCAPE '\\'` : undefined)
    .orderBy(sql`CASE WHEN ${starts} THEN 0 ELSE 1 END`, asc(trailers.trailerKey))
    .limit(TRAILER_SEARCH_MAX);
  return rows.map((r) => presentTrailer(r.trailer, r.place));
}

/** GET /trailers/{trailer_id}: the record, its open task, its last completed moves, its last gate visits. */
export async function trailerDetail(trailerId: string): Promise<TrailerDetail> {
  const key = plateKey(trailerId);
  const [row] = await selectTrailers().where(eq(trailers.trailerKey, key));
  if (!row) throw notFound(TRAILER_ERR.notFound);
  const [open] = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.trailerKey, key), openTaskSql))
    .limit(1);
  const moves = await queryTasks(
    `WHERE t.trailer_key = ? AND t.status = 'finalizada' AND t.deleted_at IS NULL ORDER BY t.completed_at DESC LIMIT ${TRAILER_MOVES_MAX}`,
    [key],
  );
  return {
    trailer: presentTrailer(row.trailer, row.place),
    open_task: open ? ((await loadTaskById(open.id)) ?? null) : null,
    moves,
    visits: await visitsOfTrailer(key),
  };
}

// ---- writing ---------------------------------------------------------------------------------------------

/** The record of a trailer named by a staff write: created if new (with this spelling), locked. */
export async function lockRecord(trailerId: string): Promise<TrailerRow> {
  const key = plateKey(trailerId);
  const at = now();
  await db
    .insert(trailers)
    .values({ trailerKey: key, trailerId: identityKey(trailerId), createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: trailers.trailerKey });
  const [row] = await forUpdate(db.select().from(trailers).where(eq(trailers.trailerKey, key)));
  return row!;
}

/**
 * POST /trailers/{trailer_id}/position: staff put the trailer at a place (a yard check), from now until a
 * move completes after it. Refusals as the gate's entry: an unknown or inactive place (400), a gate (400),
 * a full place (409).
 */
export async function positionTrailer(
  trailerId: string,
  input: { location_id: string; note: string | null },
  actor: Actor,
): Promise<Trailer> {
  return tx(
    async () => {
      const [place] = await db
        .select()
        .from(locations)
        .where(and(eq(locations.id, input.location_id), isNull(locations.deactivatedAt)));
      if (!place) throw badRequest(TRAILER_ERR.unknownLocation);
      if (place.kind === 'puerta') throw badRequest(TRAILER_ERR.gateHoldsNoTrailer);
      // Places are locked before records (as a task's creation does): no two writers wait on each other.
      const [standing] = await db
        .select({ locationId: trailers.locationId })
        .from(trailers)
        .where(eq(trailers.trailerKey, plateKey(trailerId)));
      if (standing?.locationId !== place.id) await ensureRoom(new Map([[place.id, 1]]));
      const was = await lockRecord(trailerId);
      await placeTrailer(was.trailerKey, place.id, 'correction', actor, input.note);
      await logActivity(
        'task',
        actor,
        TRAILER_LOG.positioned.action,
        TRAILER_LOG.positioned.details(was.trailerId, place.name, input.note),
      );
      record((changes) => {
        changes.yardPlacesChanged([place.id, ...(was.locationId ? [was.locationId] : [])]);
        changes.trailerChanged(was.trailerKey);
      });
      return (await loadTrailers([was.trailerKey])).get(was.trailerKey)!;
    },
    { shownWriter: true },
  );
}

const EDITABLE = {
  kind: 'kind',
  load_state: 'loadState',
  carrier: 'carrier',
  seal: 'seal',
  reference: 'reference',
  adr: 'adr',
  reefer_setpoint_c: 'reeferSetpointC',
  notes: 'notes',
} as const satisfies Record<keyof typeof TRAILER_FIELD_LABELS, keyof TrailerRow>;

/**
 * PUT /trailers/{trailer_id}: edits the record over the version the editor started from (stale → 409).
 * An unknown trailer is 404: a record is edited once something named it.
 */
export async function updateTrailer(
  trailerId: string,
  input: UpdateTrailerData,
  actor: Actor,
): Promise<Trailer> {
  const key = plateKey(trailerId);
  return tx(
    async () => {
      const [row] = await forUpdate(db.select().from(trailers).where(eq(trailers.trailerKey, key)));
      if (!row) throw notFound(TRAILER_ERR.notFound);
      if (row.version !== input.version) throw conflict(TRAILER_ERR.changedMeanwhile);
      const patch: Partial<TrailerRow> = {};
      const fields: string[] = [];
      for (const [field, column] of Object.entries(EDITABLE) as [keyof typeof EDITABLE, keyof TrailerRow][]) {
        const value = input[field];
        if (value === undefined || value === row[column]) continue;
        Object.assign(patch, { [column]: value });
        fields.push(TRAILER_FIELD_LABELS[field]);
      }
      if (fields.length) {
        await db
          .update(trailers)
          .set({ ...patch, version: row.version + 1, updatedAt: now() })
          .where(and(eq(trailers.trailerKey, key), eq(trailers.version, row.version)));
        await logActivity(
          'task',
          actor,
          TRAILER_LOG.edited.action,
          TRAILER_LOG.edited.details(row.trailerId, fields),
        );
        record((changes) => changes.trailerChanged(key));
      }
      return (await loadTrailers([key])).get(key)!;
    },
    { shownWriter: true },
  );
}

// ---- damage ----------------------------------------------------------------------------------------------

/**
 * Marks the trailer damaged with this note (a failed inspection item at the gate, staff) and holds its pool
 * tasks (tasks/commands/damage.ts), inside the caller's transaction, which holds the record's lock.
 */
export async function markDamaged(key: string, note: string, actor: Actor | null): Promise<void> {
  await change((fx) => {
    fx.happen({ on: 'trailer', trailerKey: key, type: 'damaged' });
    return damageTrailerTasks(key, note, actor, fx);
  });
}

/** POST /trailers/{trailer_id}/damage: staff mark it damaged (a record is made for a trailer never seen). */
export async function damageTrailer(trailerId: string, note: string, actor: Actor): Promise<Trailer> {
  return change(async () => {
    const row = await lockRecord(trailerId);
    await markDamaged(row.trailerKey, note, actor);
    await logActivity(
      'task',
      actor,
      TRAILER_LOG.damaged.action,
      TRAILER_LOG.damaged.details(row.trailerId, note),
    );
    return (await loadTrailers([row.trailerKey])).get(row.trailerKey)!;
  });
}

/**
 * POST /trailers/{trailer_id}/clear-damage: staff clear it; only the holds its damage made are released
 * (staff's holds, a `Remolque dañado` return's included, stay). Unknown → 404; not damaged → 409.
 */
export async function clearDamage(trailerId: string, note: string, actor: Actor): Promise<Trailer> {
  const key = plateKey(trailerId);
  return change(async (fx) => {
    const [row] = await forUpdate(db.select().from(trailers).where(eq(trailers.trailerKey, key)));
    if (!row) throw notFound(TRAILER_ERR.notFound);
    if (!row.damaged) throw conflict(TRAILER_ERR.notDamaged(row.trailerId));
    await db
      .update(trailers)
      .set({ damaged: false, damageNote: null, version: row.version + 1, updatedAt: fx.at })
      .where(eq(trailers.trailerKey, key));
    fx.happen({ on: 'trailer', trailerKey: key, type: 'damage_cleared' });
    await releaseDamageHolds(key, actor, fx);
    await logActivity(
      'task',
      actor,
      TRAILER_LOG.damageCleared.action,
      TRAILER_LOG.damageCleared.details(row.trailerId, note),
    );
    return (await loadTrailers([key])).get(key)!;
  });
}
