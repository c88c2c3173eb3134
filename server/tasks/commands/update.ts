// PUT /tasks/{id}: staff edit a task's fields and move it freely (assign, complete, reopen, back to the
// pool, hold, release); a conductor's PUT is one of their own moves (claim, return, complete).
import type { TaskStatus } from '@shared/enums';
import { dueAtError, lateSeconds } from '@shared/deadline';
import type { Task, UpdateTaskData } from '@shared/schemas';
import { ASSIGNEE_NEEDS_EN_PROCESO, ERR, TASK_FIELD_LABELS } from '@shared/labels';
import type { TaskRow, UserRow } from '../../db/tables';
import type { Principal } from '../../principal';
import { badRequest, conflict } from '../../http/errors';
import { loadTaskById } from '../../presenters/tasks';
import { ensureRoom, placeTasks } from '../../services/yard';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide } from '../transitions';
import { assignByStaff } from './assign';
import { claim } from './claim';
import { completeByStaff, finish } from './complete';
import { holdTask } from './hold';
import { releaseTask } from './release';
import { reopenTask } from './reopen';
import { giveBack, toPool } from './return';

const FIELD_COLUMNS = {
  title: 'title',
  description: 'description',
  origin: 'origin',
  destination: 'destination',
  trailer_id: 'trailerId',
  priority: 'priority',
  vehicle_type: 'vehicleType',
  load_state_after: 'loadStateAfter',
} as const satisfies Record<Exclude<keyof typeof TASK_FIELD_LABELS, 'due_at'>, keyof TaskRow>;

/**
 * PUT /tasks/{id}: a conductor only under SPEC §4; staff edit fields and move the status freely. The
 * answer is the task as the change pushed it (as it stood at its commit).
 */
export async function updateTask(id: string, input: UpdateTaskData, caller: Principal): Promise<Task> {
  const fx = isDriver(caller) ? await driverMove(id, input, caller) : await staffUpdate(id, input, caller);
  return fx.presented.get(id) ?? (await loadTaskById(id))!;
}

/** A conductor is always a signed-in user: a key acts as a manager (CONTRACT §21). */
const isDriver = (caller: Principal): caller is UserRow => caller.role === 'conductor';

function staffUpdate(id: string, input: UpdateTaskData, actor: Principal): Promise<ChangeSet> {
  return change(async (fx) => {
    let row = await liveTask(id);
    checkVersion(row, input);
    // {assigned_to} alone assigns a pool task and reassigns an in-process one.
    const target: TaskStatus =
      input.status ?? (input.assigned_to && row.status === 'bolsa_trabajo' ? 'en_proceso' : row.status);
    if (input.assigned_to && target !== 'en_proceso') {
      // Alone, it lost a race: the task was finished meanwhile (CONTRACT §5, a 409). With another
      // status the request can never succeed (a 400).
      if (input.status === undefined) throw conflict(ERR.taskFinished);
      throw badRequest(ASSIGNEE_NEEDS_EN_PROCESO);
    }

    const patch: Partial<TaskRow> = {};
    const fields: string[] = [];
    for (const [key, column] of Object.entries(FIELD_COLUMNS) as [
      keyof typeof FIELD_COLUMNS,
      keyof TaskRow,
    ][]) {
      const value = input[key];
      if (value === undefined || value === row[column]) continue;
      Object.assign(patch, { [column]: value });
      fields.push(TASK_FIELD_LABELS[key]);
    }
    const deadline = deadlinePatch(row, input, fx.at);
    if (deadline) {
      Object.assign(patch, deadline);
      fields.push(TASK_FIELD_LABELS.due_at);
    }
    const placed = await placePatch(row, input);
    Object.assign(patch, placed);
    for (const side of ['origin', 'destination'] as const)
      if ((side in placed || `${side}LocationId` in placed) && !fields.includes(TASK_FIELD_LABELS[side]))
        fields.push(TASK_FIELD_LABELS[side]);
    if (fields.length)
      row = await applyTransition(
        row,
        decide(row.status, 'update', 'staff'),
        { at: fx.at, actor, edit: patch, fields },
        fx,
      );

    if (target === 'en_proceso') {
      // Only an in-process task keeps its driver when none is named.
      const wanted =
        input.assigned_to === undefined && row.status === 'en_proceso' ? row.assignedTo : input.assigned_to;
      if (!wanted) throw badRequest(ERR.selectDriver);
      if (row.status !== 'en_proceso' || wanted !== row.assignedTo)
        row = await assignByStaff(row, wanted, actor, fx);
    } else if (target !== row.status) {
      if (target === 'finalizada') row = await completeByStaff(row, actor, fx);
      else if (row.status === 'finalizada') row = await reopenTask(row, actor, fx);
      else row = await toPool(row, actor, fx);
    }

    // Hold or release (CONTRACT §15), judged on where the task ended up: {hold_reason} alone holds too.
    const hold = input.on_hold ?? (input.hold_reason !== undefined ? true : undefined);
    if (hold === true) await holdTask(row, actor, fx, input.hold_reason);
    else if (hold === false) await releaseTask(row, actor, fx);
    return fx;
  });
}

/**
 * A changed deadline (CONTRACT §20), judged against the server's clock: a new one in the past or too far
 * is a 400, an unchanged one (even past) is no change. A finished task's lateness follows its deadline.
 */
function deadlinePatch(row: TaskRow, input: UpdateTaskData, at: Date): Partial<TaskRow> | null {
  if (input.due_at === undefined) return null;
  const dueAt = input.due_at === null ? null : new Date(input.due_at);
  if ((dueAt?.getTime() ?? null) === (row.dueAt?.getTime() ?? null)) return null;
  const refused = dueAt && dueAtError(dueAt, at.getTime());
  if (refused) throw badRequest(refused);
  return {
    dueAt,
    ...(row.status === 'finalizada' && row.completedAt ? { lateS: lateSeconds(row.completedAt, dueAt) } : {}),
  };
}

/**
 * The catalogue places of an edited task (CONTRACT §17): a side whose text or picked place changed is
 * placed again (a place picked without a text names the text too); a new destination of an open task
 * must have room for it.
 */
async function placePatch(row: TaskRow, input: UpdateTaskData): Promise<Partial<TaskRow>> {
  const originChanged = input.origin !== undefined || input.origin_location_id !== undefined;
  const destinationChanged = input.destination !== undefined || input.destination_location_id !== undefined;
  if (!originChanged && !destinationChanged) return {};
  // Only the sides that changed are placed again: a side left alone keeps its place, even one
  // deactivated since.
  const [placed] = await placeTasks([
    {
      origin: input.origin ?? row.origin,
      destination: input.destination ?? row.destination,
      origin_location_id: input.origin_location_id,
      destination_location_id: input.destination_location_id,
    },
  ]);
  const patch: Partial<TaskRow> = {};
  // `null` picked: free text, whatever the catalogue says.
  const side = (
    changed: boolean,
    picked: string | null | undefined,
    found: string | null,
    kept: string | null,
  ) => (!changed ? kept : picked === null ? null : found);
  const originId = side(
    originChanged,
    input.origin_location_id,
    placed!.originLocationId,
    row.originLocationId,
  );
  const destinationId = side(
    destinationChanged,
    input.destination_location_id,
    placed!.destinationLocationId,
    row.destinationLocationId,
  );
  if (originId !== row.originLocationId) patch.originLocationId = originId;
  if (destinationId !== row.destinationLocationId) patch.destinationLocationId = destinationId;
  // A place picked without a text names the text too.
  if (input.destination_location_id && input.destination === undefined)
    patch.destination = placed!.destination!.name;
  if (input.origin_location_id && input.origin === undefined) patch.origin = placed!.origin!.name;
  if (patch.destinationLocationId && row.status !== 'finalizada')
    await ensureRoom(new Map([[patch.destinationLocationId, 1]]), row.id);
  return patch;
}

/** An editor that names the version it started from must still be looking at the current one. */
function checkVersion(row: TaskRow, input: UpdateTaskData): void {
  if (input.version !== undefined && input.version !== row.version) throw conflict(ERR.versionConflict);
}

/**
 * A conductor's PUT: claim a pool task of their types, or return/complete their own task — decided on
 * the task as read inside the move's transaction.
 */
async function driverMove(id: string, input: UpdateTaskData, driver: UserRow): Promise<ChangeSet> {
  const { status, assigned_to, version: _version, ...fields } = input;
  return change(async (fx) => {
    const row = await liveTask(id);
    checkVersion(row, input);
    const others = Object.keys(fields).length > 0 || (assigned_to != null && assigned_to !== driver.id);
    const target =
      status ?? (assigned_to === driver.id && row.status === 'bolsa_trabajo' ? 'en_proceso' : row.status);
    if (!others) {
      if (row.status === 'bolsa_trabajo' && target === 'en_proceso') {
        await claim(row, driver, fx);
        return fx;
      }
      if (row.status === 'en_proceso' && row.assignedTo === driver.id) {
        if (target === 'bolsa_trabajo') await giveBack(row, driver, fx, null);
        else if (target === 'finalizada') await finish(row, driver, fx);
        return fx;
      }
    }
    throw conflict(ERR.driverMoveRule);
  });
}
