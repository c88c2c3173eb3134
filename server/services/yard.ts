// The yard (CONTRACT §17): which catalogue place a task's text stands for, where each trailer stands, how
// full each place is, and what GET /yard and GET /yard/trailers answer.
//
// Where a trailer stands (CONTRACT §19) is the later of the destination of its latest completed move (a gate
// or free text: out of the yard) and its latest positional event (a staff correction puts it at a place,
// `leave` takes it out; the gate's entry and exit later), kept on its record in `trailers`, settled inside
// every transaction that completes, reopens, deletes or re-aims a finished move (the yard processor,
// changes/processors/yard.ts), so the map reads one small table instead of the history. Trailers are
// told apart by their plate key (plateKey(), shared/text.ts; docs/GATE.md).
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { TrailerEventKind } from '@shared/enums';
import type { Location, YardLocation, YardOpenTask, YardTrailer } from '@shared/schemas';
import { placeKey, plateKey } from '@shared/text';
import { YARD_ERR, YARD_LOG } from '@shared/labels';
import { appendRows, db, execute, query, tx } from '../db';
import { forUpdate, WRITERS_QUIET } from '../db/dialect';
import { locations, tasks, trailerEvents, trailers, type LocationRow } from '../db/tables';
import { now } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { logActivity, type Actor } from './activity';
import { sharedAnswer, type SharedAnswer } from './shared-answers';
import { record } from '../changes/commit';
import type { ChangeSet } from '../changes/change-set';
import { openTaskSql } from '../tasks/visibility';
import {
  marksOfRaw,
  presentMarks,
  TRAILER_MARKS_COLUMNS,
  TRAILER_MARKS_SQL,
  type TrailerMarksRaw,
} from '../presenters/tasks';

// ---- the catalogue places of a task ---------------------------------------------------------------

/** The active places the texts stand for, by each text's placeKey(): a name first, else a code. */
export async function placesNamed(texts: readonly string[]): Promise<Map<string, LocationRow>> {
  const keys = [...new Set(texts.map(placeKey))];
  const found = new Map<string, LocationRow>();
  if (!keys.length) return found;
  // Two lookups, each on its own index (one OR of both would scan the catalogue); most texts are names.
  const active = isNull(locations.deactivatedAt);
  for (const row of await db
    .select()
    .from(locations)
    .where(and(active, inArray(locations.nameKey, keys))))
    found.set(row.nameKey, row);
  const rest = keys.filter((k) => !found.has(k));
  if (rest.length)
    for (const row of await db
      .select()
      .from(locations)
      .where(
        and(
          active,
          inArray(
            locations.code,
            rest.map((k) => k.toUpperCase()),
          ),
        ),
      ))
      found.set(
        rest.find((k) => k.toUpperCase() === row.code)!,
        row,
      );
  return found;
}

/** What a task says about its places: the texts, and the ids the client picked (null: none picked). */
export interface PlacedText {
  origin: string;
  destination: string;
  origin_location_id?: string | null;
  destination_location_id?: string | null;
}

export interface Placed {
  originLocationId: string | null;
  destinationLocationId: string | null;
  /** The places themselves, when they are (the room check, a picked place's name). */
  origin: LocationRow | null;
  destination: LocationRow | null;
}

/**
 * The catalogue places of tasks (CONTRACT §17): the id the client picked (an active place, else 400), or
 * the place whose name or code the text equals (accents and case aside), or null for free text.
 */
export async function placeTasks(items: readonly PlacedText[]): Promise<Placed[]> {
  const picked = [
    ...new Set(items.flatMap((i) => [i.origin_location_id, i.destination_location_id]).filter(Boolean)),
  ] as string[];
  const byId = new Map<string, LocationRow>();
  if (picked.length)
    for (const row of await db
      .select()
      .from(locations)
      .where(and(inArray(locations.id, picked), isNull(locations.deactivatedAt))))
      byId.set(row.id, row);
  if (byId.size < picked.length) throw badRequest(YARD_ERR.unknownLocation);
  const named = await placesNamed(
    items.flatMap((i) => [
      ...(i.origin_location_id ? [] : [i.origin]),
      ...(i.destination_location_id ? [] : [i.destination]),
    ]),
  );
  const place = (id: string | null | undefined, text: string) =>
    id ? byId.get(id)! : (named.get(placeKey(text)) ?? null);
  return items.map((i) => {
    const origin = place(i.origin_location_id, i.origin);
    const destination = place(i.destination_location_id, i.destination);
    return {
      originLocationId: origin?.id ?? null,
      destinationLocationId: destination?.id ?? null,
      origin,
      destination,
    };
  });
}

// ---- room -------------------------------------------------------------------------------------------

/**
 * Refuses (409 `La ubicación {name} está completa`) when a place cannot take `wanted` more trailers: its
 * trailers not booked to leave plus the open tasks heading to it (but `except`, the task being re-aimed)
 * reach its capacity. The places are locked first (PostgreSQL), so two tasks racing for the last slot
 * are decided one after the other. A gate holds no trailer: it is never full.
 */
export async function ensureRoom(wanted: ReadonlyMap<string, number>, except?: string): Promise<void> {
  const ids = [...wanted.keys()].sort();
  if (!ids.length) return;
  // The trailers and tasks this transaction placed there reference the place: see forUpdate's strength.
  const places = await forUpdate(
    db
      .select({ id: locations.id, name: locations.name, kind: locations.kind, capacity: locations.capacity })
      .from(locations)
      .where(inArray(locations.id, ids))
      .orderBy(asc(locations.id)),
    'no key update',
  );
  const holding = places.filter((p) => p.kind !== 'puerta');
  if (!holding.length) return;
  const used = await occupancy(
    holding.map((p) => p.id),
    except,
  );
  for (const p of holding)
    if ((used.get(p.id) ?? 0) + wanted.get(p.id)! > p.capacity) throw conflict(YARD_ERR.locationFull(p.name));
}

/**
 * ensureRoom() once this transaction has put its trailers at these places: refuses a place now holding more
 * than its capacity. Run as the last step before the commit, so the places' locks are held the shortest time
 * (changes/processors/yard.ts).
 */
export const refuseOverfull = (ids: readonly string[]): Promise<void> =>
  ensureRoom(new Map(ids.map((id) => [id, 0])));

/**
 * Per place (these, or every place with `null`): its trailers with no open task (not booked to leave) plus
 * the open tasks heading to it.
 */
export async function occupancy(
  ids: readonly string[] | null,
  except?: string,
): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  const add = (id: string | null, n: number) => id && used.set(id, (used.get(id) ?? 0) + n);
  // One statement (one round trip, one snapshot): the room check runs while its places are locked.
  const counts = await db
    .select({ id: trailers.locationId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(trailers)
    .where(
      and(
        ids ? inArray(trailers.locationId, ids) : isNotNull(trailers.locationId),
        sql`NOT EXISTS (SELECT 1 FROM ${tasks} WHERE ${tasks.trailerKey} = ${trailers.trailerKey} AND ${openTaskSql})`,
      ),
    )
    .groupBy(trailers.locationId)
    .unionAll(
      db
        .select({ id: tasks.destinationLocationId, n: sql<number>`count(*)`.mapWith(Number) })
        .from(tasks)
        .where(
          and(
            ids ? inArray(tasks.destinationLocationId, ids) : isNotNull(tasks.destinationLocationId),
            openTaskSql,
            ...(except ? [ne(tasks.id, except)] : []),
          ),
        )
        .groupBy(tasks.destinationLocationId),
    );
  for (const r of counts) add(r.id, r.n);
  return used;
}

// ---- where trailers stand ---------------------------------------------------------------------------

/** A trailer's latest completed move: where it ended (and whether that is a gate), and when. */
interface Move {
  taskId: string;
  /** The plate as that task spells it (a record created from it keeps this spelling). */
  trailerId: string;
  completedAt: Date;
  locationId: string | null;
  kind: string | null;
}

/** The latest completed move of each trailer (all of them without `keys`), by plate key: one query. */
async function latestMoves(keys?: readonly string[]): Promise<Map<string, Move>> {
  const only = keys ? `AND t.trailer_key IN (${keys.map(() => '?').join(', ')})` : '';
  const rows = await query<{
    trailer_key: string;
    trailer_id: string;
    id: string;
    completed_at: number | string;
    location_id: string | null;
    kind: string | null;
  }>(
    `SELECT m.trailer_key, m.trailer_id, m.id, m.completed_at, m.location_id, l.kind FROM (
       SELECT t.trailer_key, t.trailer_id, t.id, t.completed_at,
         COALESCE(t.dropped_at_location_id, t.destination_location_id) AS location_id,
         ROW_NUMBER() OVER (PARTITION BY t.trailer_key ORDER BY t.completed_at DESC) AS n
       FROM tasks t WHERE t.status = 'finalizada' AND t.deleted_at IS NULL ${only}
     ) m LEFT JOIN locations l ON l.id = m.location_id WHERE m.n = 1`,
    keys ?? [],
  );
  return new Map(
    rows.map((r) => [
      r.trailer_key,
      {
        taskId: r.id,
        trailerId: r.trailer_id,
        // PostgreSQL's bigint arrives as text.
        completedAt: new Date(Number(r.completed_at)),
        locationId: r.location_id,
        kind: r.kind,
      },
    ]),
  );
}

/** Where the latest positional event of each of these trailers put it (null: out of the yard). */
async function latestEvents(keys: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  if (!keys.length) return found;
  for (let i = 0; i < keys.length; i += SLICE)
    for (const e of await db
      .select({ key: trailerEvents.trailerKey, locationId: trailerEvents.locationId })
      .from(trailerEvents)
      .where(inArray(trailerEvents.trailerKey, keys.slice(i, i + SLICE)))
      .orderBy(desc(trailerEvents.at), desc(trailerEvents.id)))
      if (!found.has(e.key)) found.set(e.key, e.locationId);
  return found;
}

type Position = Pick<typeof trailers.$inferInsert, 'locationId' | 'since' | 'taskId'>;

/**
 * Writes where these trailers stand now (inside the caller's transaction), the later of their latest
 * completed move and their latest positional event; returns the places whose trailers changed: the ones
 * they left and the ones they reached. A move to a gate or to free text takes a trailer out of the yard.
 */
async function settle(
  keys: readonly string[],
  moves: ReadonlyMap<string, Move>,
  fx?: Pick<ChangeSet, 'trailerChanged' | 'happen'>,
): Promise<string[]> {
  const records = new Map<string, typeof trailers.$inferSelect>();
  for (let i = 0; i < keys.length; i += SLICE)
    for (const r of await db
      .select()
      .from(trailers)
      .where(inArray(trailers.trailerKey, keys.slice(i, i + SLICE))))
      records.set(r.trailerKey, r);
  // A positional event later than the latest move decides (a correction, `leave`): where it put it.
  const byEvent = keys.filter((k) => {
    const placedAt = records.get(k)?.placedAt;
    const move = moves.get(k);
    return placedAt && (!move || placedAt.getTime() >= move.completedAt.getTime());
  });
  const placedLater = new Set(byEvent);
  const events = await latestEvents(byEvent);
  const changed = new Set<string>();
  const at = now();
  const rows: (typeof trailers.$inferInsert)[] = [];
  for (const key of keys) {
    const move = moves.get(key);
    const was = records.get(key);
    if (!was && !move) continue; // never seen: nothing to keep
    let next: Position;
    if (placedLater.has(key)) {
      const locationId = events.get(key) ?? null;
      next = {
        locationId,
        since: locationId === was?.locationId ? (was?.since ?? null) : locationId ? was!.placedAt : null,
        taskId: null,
      };
    } else {
      const locationId = move && move.kind && move.kind !== 'puerta' ? move.locationId : null;
      next = {
        locationId,
        since: locationId ? move!.completedAt : null,
        taskId: locationId ? move!.taskId : null,
      };
    }
    if (
      was &&
      was.locationId === next.locationId &&
      (was.since?.getTime() ?? null) === (next.since?.getTime() ?? null)
    )
      continue;
    if (was?.locationId) changed.add(was.locationId);
    if (next.locationId) changed.add(next.locationId);
    fx?.trailerChanged(key);
    // It stands elsewhere now (a move completed, reopened, re-aimed): other systems hear of it (§21). A
    // positional event wrote its place itself (placeTrailer, which tells of it), so it changes nothing here.
    if ((was?.locationId ?? null) !== next.locationId)
      fx?.happen({
        on: 'trailer',
        trailerKey: key,
        type: 'moved',
        from: was?.locationId ?? null,
        to: next.locationId,
      });
    rows.push({
      trailerKey: key,
      trailerId: was?.trailerId ?? move!.trailerId,
      ...next,
      createdAt: at,
      updatedAt: at,
    });
  }
  for (let i = 0; i < rows.length; i += SLICE) await upsertPositions(rows.slice(i, i + SLICE));
  return [...changed];
}

/** Rows per statement: well under both engines' limits on parameters. */
const SLICE = 500;

/** Settles the positions of these trailers after a change to their finished moves (changes/processors/yard.ts). */
export async function settleTrailers(
  keys: readonly string[],
  fx?: Pick<ChangeSet, 'trailerChanged' | 'happen'>,
): Promise<string[]> {
  if (!keys.length) return [];
  return settle(keys, await latestMoves(keys), fx);
}

/** Writes positions: a record's place, since and move, its version + 1; a trailer not recorded yet gets its record. */
async function upsertPositions(rows: (typeof trailers.$inferInsert)[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(trailers)
    .values(rows)
    .onConflictDoUpdate({
      target: trailers.trailerKey,
      set: {
        locationId: sql`excluded.location_id`,
        since: sql`excluded.since`,
        taskId: sql`excluded.task_id`,
        version: sql`${trailers.version} + 1`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/**
 * Settles where every trailer stands (after the catalogue changed, or a generated history was written);
 * every trailer a task names gets its record first.
 */
export async function settleAllTrailers(): Promise<string[]> {
  const at = now().getTime();
  await execute(
    `INSERT INTO trailers (trailer_key, trailer_id, created_at, updated_at)
     SELECT trailer_key, min(trailer_id), min(created_at), ? FROM tasks WHERE 1 = 1 GROUP BY trailer_key
     ON CONFLICT (trailer_key) DO NOTHING`,
    [at],
  );
  const moves = await latestMoves();
  const known = await db.select({ key: trailers.trailerKey }).from(trailers);
  return settle([...new Set([...moves.keys(), ...known.map((t) => t.key)])], moves);
}

/** Whether a place holds a trailer or expects one (it cannot be deactivated nor become a gate then). */
export async function placeInUse(id: string): Promise<boolean> {
  const [held] = await db
    .select({ id: trailers.trailerKey })
    .from(trailers)
    .where(eq(trailers.locationId, id))
    .limit(1);
  if (held) return true;
  const [expected] = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.destinationLocationId, id), openTaskSql))
    .limit(1);
  return !!expected;
}

// ---- staff mark a trailer gone ----------------------------------------------------------------------

/**
 * POST /yard/trailers/{trailer_id}/leave: the trailer left the yard without a move through a gate. A
 * trailer with an open task is still expected to move: 409.
 */
export async function leaveYard(trailerId: string, actor: Actor): Promise<{ place: string }> {
  const key = plateKey(trailerId);
  return tx(
    async () => {
      const [position] = await forUpdate(
        db
          .select({ trailerId: trailers.trailerId, locationId: trailers.locationId, name: locations.name })
          .from(trailers)
          .innerJoin(locations, eq(locations.id, trailers.locationId))
          .where(eq(trailers.trailerKey, key)),
      );
      if (!position) throw notFound(YARD_ERR.trailerNotInYard(trailerId));
      const [open] = await db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.trailerKey, key), openTaskSql))
        .limit(1);
      if (open) throw conflict(YARD_ERR.trailerHasOpenTask(position.trailerId));
      await placeTrailer(key, null, 'leave', actor, null);
      await logActivity(
        'task',
        actor,
        YARD_LOG.left.action,
        YARD_LOG.left.details(position.trailerId, position.name),
      );
      record((changes) => {
        changes.yardPlacesChanged([position.locationId!]);
        changes.trailerChanged(key);
      });
      return { place: position.name };
    },
    { shownWriter: true },
  );
}

/**
 * A positional event (CONTRACT §19): the trailer stands at `locationId` from now (null: out of the yard),
 * until a move completes after it; written on its record (version + 1) and in its history. The caller
 * holds the record's lock and records the change.
 */
export async function placeTrailer(
  key: string,
  locationId: string | null,
  kind: TrailerEventKind,
  actor: Actor | null,
  note: string | null,
  at: Date = now(),
): Promise<void> {
  const [was] = await db
    .select({ locationId: trailers.locationId, since: trailers.since })
    .from(trailers)
    .where(eq(trailers.trailerKey, key));
  await db
    .update(trailers)
    .set({
      locationId,
      since: locationId === null ? null : locationId === was?.locationId ? was.since : at,
      taskId: null,
      placedAt: at,
      version: sql`${trailers.version} + 1`,
      updatedAt: at,
    })
    .where(eq(trailers.trailerKey, key));
  await appendRows(trailerEvents, [
    { trailerKey: key, kind, locationId, note, actorId: actor?.id ?? null, at },
  ]);
  record((changes) =>
    changes.happen({
      on: 'trailer',
      trailerKey: key,
      type: kind,
      from: was?.locationId ?? null,
      to: locationId,
    }),
  );
}

// ---- what staff screens read ------------------------------------------------------------------------

/**
 * The version of what the yard shows: any task change (a move, a hold, a reservation; the versions of the
 * tasks changed in the newest millisecond break its ties), any catalogue change (which also re-maps tasks
 * and settles trailers), any trailer marked gone; null while a writer runs (db/dialect.ts). Many wall
 * screens refetching after a `yard:changed` share one answer (services/shared-answers.ts).
 */
const YARD_VERSION_SQL = `SELECT (SELECT max(updated_at) FROM tasks) AS tasks_at,
  (SELECT sum(version) FROM tasks WHERE updated_at = (SELECT max(updated_at) FROM tasks)) AS tie,
  (SELECT max(updated_at) FROM locations) AS places_at, (SELECT max(updated_at) FROM trailers) AS trailers_at,
  ${WRITERS_QUIET} AS quiet`;

async function yardVersion(): Promise<string | null> {
  const [v] = await query<Record<string, unknown>>(YARD_VERSION_SQL);
  return v?.quiet ? `${v?.tasks_at}:${v?.tie}:${v?.places_at}:${v?.trailers_at}` : null;
}

/** GET /yard, shared by every staff screen at the yard's current version. */
export const sharedYardMap = async (): Promise<SharedAnswer> =>
  sharedAnswer('yard', await yardVersion(), yardMap);

/** GET /yard/trailers, shared likewise. */
export const sharedYardTrailers = async (): Promise<SharedAnswer> =>
  sharedAnswer('yard-trailers', await yardVersion(), yardTrailers);

const iso = (d: Date) => d.toISOString();

/** The open tasks of the yard: what books a trailer to leave, and what heads to a place. */
async function openTasks() {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      trailerId: tasks.trailerId,
      trailerKey: tasks.trailerKey,
      status: tasks.status,
      destination: tasks.destination,
      destinationLocationId: tasks.destinationLocationId,
      onHold: tasks.onHold,
      holdReason: tasks.holdReason,
    })
    .from(tasks)
    .where(openTaskSql);
}
type OpenRow = Awaited<ReturnType<typeof openTasks>>[number];
const presentOpen = (t: OpenRow | undefined): YardOpenTask | null =>
  t
    ? {
        id: t.id,
        title: t.title,
        status: t.status,
        destination: t.destination,
        on_hold: t.onHold,
        hold_reason: t.holdReason,
      }
    : null;

export const presentLocation = (l: LocationRow): Location => ({
  id: l.id,
  code: l.code,
  name: l.name,
  kind: l.kind,
  zone: l.zone,
  capacity: l.capacity,
  x: l.x,
  y: l.y,
  active: l.deactivatedAt === null,
});

/** GET /yard: every active place, its trailers (oldest first), the open tasks heading to it, its room. */
export async function yardMap(): Promise<YardLocation[]> {
  // Raw reads of the two big lists (thousands of places and trailers): drizzle's row mapping would cost
  // more than the queries themselves.
  const [places, positions, open] = await Promise.all([
    query<Omit<Location, 'active'>>(
      `SELECT id, code, name, kind, zone, capacity, x, y FROM locations WHERE deactivated_at IS NULL
        ORDER BY zone, y, x, code`,
    ),
    query<
      {
        trailer_id: string;
        trailer_key: string;
        location_id: string;
        since: number | string;
      } & TrailerMarksRaw
    >(
      `SELECT trailer_id, trailer_key, location_id, since, ${TRAILER_MARKS_SQL} FROM trailers r
        WHERE location_id IS NOT NULL ORDER BY since`,
    ),
    openTasks(),
  ]);
  const openByTrailer = new Map(open.map((t) => [t.trailerKey, t]));
  const map = new Map<string, YardLocation>(
    places.map((l) => [l.id, { ...l, active: true, trailers: [], incoming: [], free: null }]),
  );
  for (const p of positions)
    map.get(p.location_id)?.trailers.push({
      trailer_id: p.trailer_id,
      // PostgreSQL's bigint arrives as text.
      since: iso(new Date(Number(p.since))),
      open_task: presentOpen(openByTrailer.get(p.trailer_key)),
      marks: presentMarks(marksOfRaw(p)),
    });
  for (const t of open)
    if (t.destinationLocationId)
      map.get(t.destinationLocationId)?.incoming.push({
        task_id: t.id,
        trailer_id: t.trailerId,
        status: t.status,
        on_hold: t.onHold,
      });
  for (const place of map.values())
    if (place.kind !== 'puerta') {
      const staying = place.trailers.filter((t) => !t.open_task).length;
      place.free = Math.max(0, place.capacity - staying - place.incoming.length);
    }
  return [...map.values()];
}

/** GET /yard/trailers: every trailer standing in the yard, longest-standing first. */
export async function yardTrailers(): Promise<YardTrailer[]> {
  const [rows, open] = await Promise.all([
    db
      .select({
        trailerId: trailers.trailerId,
        trailerKey: trailers.trailerKey,
        since: trailers.since,
        place: locations,
        marks: TRAILER_MARKS_COLUMNS,
      })
      .from(trailers)
      .innerJoin(locations, eq(locations.id, trailers.locationId))
      .orderBy(asc(trailers.since)),
    openTasks(),
  ]);
  const openByTrailer = new Map(open.map((t) => [t.trailerKey, t]));
  return rows.map((r) => ({
    trailer_id: r.trailerId,
    location: {
      id: r.place.id,
      code: r.place.code,
      name: r.place.name,
      zone: r.place.zone,
      kind: r.place.kind,
    },
    since: iso(r.since!),
    open_task: presentOpen(openByTrailer.get(r.trailerKey)),
    marks: presentMarks(r.marks),
  }));
}
