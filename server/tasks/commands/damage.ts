// A damaged trailer's pool tasks (CONTRACT §19 "Damage"): held while it is damaged (`hold_source`
// `damage`, reason `Remolque con daños: {damage_note}`) but a task heading to a `taller`, never held;
// clearing the damage releases only those holds. A task held by staff (a `Remolque dañado` return
// included) keeps its own hold. Runs inside the caller's transaction, which holds the trailer's record.
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { TRAILER_DAMAGE } from '@shared/labels';
import { db } from '../../db';
import { forUpdate } from '../../db/dialect';
import { locations, tasks, trailers, type TaskRow } from '../../db/tables';
import type { Actor } from '../../services/activity';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';

/** The trailer's pool tasks matching `where`, locked (no join: PostgreSQL locks no outer join's nullable side). */
const poolTasksOf = (key: string, ...where: SQL[]): Promise<TaskRow[]> =>
  forUpdate(
    db
      .select()
      .from(tasks)
      .where(
        and(eq(tasks.trailerKey, key), eq(tasks.status, 'bolsa_trabajo'), isNull(tasks.deletedAt), ...where),
      ),
  );

/** Not heading to a workshop (a damaged trailer goes there to be mended: never held for it). */
const notToWorkshop = sql`NOT EXISTS (SELECT 1 FROM ${locations} WHERE ${locations.id} = ${tasks.destinationLocationId} AND ${locations.kind} = 'taller')`;

/**
 * Holds the trailer's pool tasks for its damage (`note`: its damage note): an unheld one is held, one held
 * for an earlier damage gets the new reason; one held by staff stays as it is.
 */
export async function holdForDamage(
  key: string,
  note: string,
  actor: Actor | null,
  fx: ChangeSet,
): Promise<Map<string, TaskRow>> {
  const reason = TRAILER_DAMAGE.holdReason(note);
  const written = new Map<string, TaskRow>();
  for (const row of await poolTasksOf(key, notToWorkshop)) {
    if (row.onHold && (row.holdSource !== 'damage' || row.holdReason === reason)) continue;
    const next = await applyTransition(
      row,
      decide(row.status, 'hold', 'staff'),
      { at: fx.at, actor, reason, holdSource: 'damage' },
      fx,
    );
    written.set(next.id, next);
  }
  return written;
}

/** Releases the holds the trailer's damage made (staff's holds stay). */
export async function releaseDamageHolds(key: string, actor: Actor | null, fx: ChangeSet): Promise<void> {
  const held = await poolTasksOf(key, eq(tasks.onHold, true), eq(tasks.holdSource, 'damage'));
  for (const row of held)
    await applyTransition(row, decide(row.status, 'release', 'staff'), { at: fx.at, actor }, fx);
}

/**
 * A task that has just entered the pool (created, returned, reopened) while its trailer is damaged is held
 * the same way.
 */
export async function holdIfDamaged(
  keys: readonly string[],
  actor: Actor | null,
  fx: ChangeSet,
): Promise<Map<string, TaskRow>> {
  if (!keys.length) return new Map();
  const damaged = await db
    .select({ key: trailers.trailerKey, note: trailers.damageNote })
    .from(trailers)
    .where(and(inArray(trailers.trailerKey, [...new Set(keys)]), eq(trailers.damaged, true)));
  return holdForDamages(new Map(damaged.map(({ key, note }) => [key, note ?? ''])), actor, fx);
}

/** Holds the pool tasks of these damaged trailers (plate key → damage note) for their damage. */
export async function holdForDamages(
  damaged: ReadonlyMap<string, string>,
  actor: Actor | null,
  fx: ChangeSet,
): Promise<Map<string, TaskRow>> {
  const written = new Map<string, TaskRow>();
  for (const [key, note] of damaged)
    for (const [id, row] of await holdForDamage(key, note, actor, fx)) written.set(id, row);
  return written;
}

/** Marks the trailer damaged with this note and holds its pool tasks (the caller holds its record). */
export async function damageTrailerTasks(
  key: string,
  note: string,
  actor: Actor | null,
  fx: ChangeSet,
  trailerId?: string,
): Promise<void> {
  // A trailer named only by rows written before its records existed gets its record (with this spelling).
  if (trailerId)
    await db
      .insert(trailers)
      .values({ trailerKey: key, trailerId, createdAt: fx.at, updatedAt: fx.at })
      .onConflictDoNothing({ target: trailers.trailerKey });
  await db
    .update(trailers)
    .set({ damaged: true, damageNote: note, version: sql`${trailers.version} + 1`, updatedAt: fx.at })
    .where(eq(trailers.trailerKey, key));
  fx.trailerChanged(key);
  await holdForDamage(key, note, actor, fx);
}
