import { and, eq, isNull } from 'drizzle-orm';
import type { ProofKind } from '@shared/enums';
import { ERR, PROOF_TEXT } from '@shared/labels';
import { db } from '../../db';
import { locations, type TaskRow, type UserRow } from '../../db/tables';
import { badRequest, conflict } from '../../http/errors';
import type { Actor } from '../../services/activity';
import { actionTime } from '../../services/idempotency';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide } from '../transitions';

/** What a driver's completion says of itself (CONTRACT §16, §20). */
export interface Completion {
  /** From the offline queue: when it was completed, believed when plausible. */
  clientTime?: string;
  /** `scan` only for a camera decode; `manual` by default. */
  proof?: Exclude<ProofKind, 'staff'>;
  /** The place it was really left at (scanned or typed). */
  locationId?: string;
}

/**
 * POST /tasks/{id}/complete: the assignee completes; repeating it on a task they completed changes
 * nothing (a safe retry). A place other than the destination is where the trailer was really left
 * (`dropped_at_location_id`): never refused for room, a trailer is where it is (CONTRACT §20).
 */
export async function completeByDriver(id: string, driver: UserRow, done: Completion = {}): Promise<void> {
  await change(async (fx) => finish(await liveTask(id), driver, fx, done));
}

export async function finish(
  row: TaskRow,
  driver: UserRow,
  fx: ChangeSet,
  done: Completion = {},
): Promise<void> {
  if (row.status === 'finalizada' && row.assignedTo === driver.id) return;
  const t = decide(row.status, 'complete', 'driver');
  if (row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
  const when = actionTime(done.clientTime, fx.at, row.assignedAt);
  const droppedAt = done.locationId ? await droppedPlace(row, done.locationId) : null;
  await applyTransition(
    row,
    t,
    { at: fx.at, actor: driver, when, proof: done.proof ?? 'manual', droppedAt },
    fx,
  );
}

/** The place named on completion: an active catalogue place (else 400); null when it is the destination. */
async function droppedPlace(row: TaskRow, locationId: string): Promise<string | null> {
  const [place] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.id, locationId), isNull(locations.deactivatedAt)))
    .limit(1);
  if (!place) throw badRequest(PROOF_TEXT.unknownPlace);
  return place.id === row.destinationLocationId ? null : place.id;
}

/** Staff finish a task (a driver's in-process one: that driver is credited and told, not congratulated). */
export function completeByStaff(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  return applyTransition(
    row,
    decide(row.status, 'complete', 'staff'),
    { at: fx.at, actor, proof: 'staff' },
    fx,
  );
}
