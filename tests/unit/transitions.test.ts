// The tasks' table (server/tasks/transitions.ts): what each command, by each role, does from each status —
// what the commands rely on to decide and apply.ts to write. Pure: no database.
import { describe, expect, it } from 'vitest';
import { TASK_STATUSES, type TaskStatus } from '@shared/enums';
import { ERR, TASK_FIELD_LABELS, TASK_LOG } from '@shared/labels';
import { HttpError } from '../../server/http/errors';
import {
  decide,
  lookUp,
  roundFollows,
  type Command,
  type Facts,
  type Role,
  type Subject,
} from '../../server/tasks/transitions';

const at = new Date('2026-03-02T10:00:00.000Z');
const staff = { id: 'staff-1', name: 'Marta Torre' };
const driver = { id: 'driver-1', name: 'Luis Conductor' };
const other = { id: 'driver-2', name: 'Ana Relevo' };

const task = (over: Partial<Subject> = {}): Subject => ({
  id: 't1',
  status: 'bolsa_trabajo',
  title: 'Mover',
  trailerId: 'R-100',
  origin: 'Muelle 1',
  destination: 'Muelle 2',
  vehicleType: 'semiremolque',
  assignedTo: null,
  createdBy: staff.id,
  creditedTo: null,
  onHold: false,
  holdReason: null,
  dueAt: null,
  ...over,
});
const active = (over: Partial<Subject> = {}) =>
  task({ status: 'en_proceso', assignedTo: driver.id, ...over });

/** The 409 a refused move answers. */
function refusal(from: TaskStatus, command: Command, role: Role): string | undefined {
  try {
    decide(from, command, role);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(409);
    return (err as HttpError).detail;
  }
}

describe('the tasks table', () => {
  it('has an answer, a move or a 409, for every status the commands decide on', () => {
    const decided: [Command, Role][] = [
      ['update', 'staff'],
      ['assign', 'staff'],
      ['claim', 'driver'],
      ['complete', 'driver'],
      ['return', 'driver'],
      ['hold', 'staff'],
      ['delete', 'staff'],
    ];
    for (const [command, role] of decided)
      for (const status of TASK_STATUSES)
        expect(lookUp(status, command, role), `${status} ${command}`).toBeDefined();
    // A move with no meaning there is a programming error (a 500), never a silent write.
    expect(() => decide('en_proceso', 'assign', 'engine')).toThrow(Error);
    expect(() => decide('en_proceso', 'assign', 'engine')).not.toThrow(HttpError);
  });

  it('a driver claims only a pool task; the loser of a race hears it is taken', () => {
    const t = decide('bolsa_trabajo', 'claim', 'driver');
    expect(t.to).toBe('en_proceso');
    expect(t.patch(task(), { at, actor: driver, driver })).toEqual({
      assignedTo: driver.id,
      assignedAt: at,
      returnReason: null,
    });
    expect(t.events(task(), { at, actor: driver, driver })).toEqual([
      { type: 'assigned', driverId: driver.id, from: 'bolsa_trabajo', to: 'en_proceso' },
    ]);
    expect(t.logs(task(), { at, actor: driver, driver }).map((l) => l.action)).toEqual([
      TASK_LOG.selfAssigned.action,
    ]);
    // Nobody is told of their own claim; a second active task is theirs to hear about.
    expect(t.notices).toEqual([]);
    expect(t.busy).toBe(ERR.alreadyActive);
    expect(t.round).toBe(false);
    expect(refusal('en_proceso', 'claim', 'driver')).toBe(ERR.alreadyAssigned);
    expect(refusal('finalizada', 'claim', 'driver')).toBe(ERR.taskFinished);
  });

  it('staff assign a pool task, reassign an in-process one (the driver who lost it told, idle, a round)', () => {
    const first = decide('bolsa_trabajo', 'assign', 'staff');
    expect(first.notices).toEqual(['assigned']);
    expect(first.idle).toBe(false);
    expect(first.round).toBe(false);
    expect(first.busy).toBeUndefined();

    const again = decide('en_proceso', 'assign', 'staff');
    expect(again.to).toBe('en_proceso');
    expect(again.notices).toEqual(['assigned', 'withdrawn']);
    expect(again.idle).toBe(true);
    expect(again.round).toBe(true);
    expect(again.logs(active(), { at, actor: staff, driver: other })).toEqual([
      { action: TASK_LOG.assigned.action, details: TASK_LOG.assigned.details(active(), other.name) },
    ]);
    // Alone, {assigned_to} on a finished task lost a race.
    expect(refusal('finalizada', 'assign', 'staff')).toBe(ERR.taskFinished);
  });

  it('assigning a held task by hand releases it first, in the same write', () => {
    const held = task({ onHold: true, holdReason: 'Remolque dañado' });
    const t = decide('bolsa_trabajo', 'assign', 'staff');
    const f: Facts = { at, actor: staff, driver };
    expect(t.patch(held, f)).toMatchObject({ onHold: false, holdReason: null, assignedTo: driver.id });
    expect(t.events(held, f).map((e) => e.type)).toEqual(['released', 'assigned']);
    expect(t.events(held, f)[0]!.reason).toBeUndefined();
    expect(t.logs(held, f).map((l) => l.action)).toEqual([TASK_LOG.unheld.action, TASK_LOG.assigned.action]);
  });

  it("the engine's assignment: logged as automatic, the driver told with sound, no further round", () => {
    const t = decide('bolsa_trabajo', 'assign', 'engine');
    expect(t.logs(task(), { at, actor: null, driver }).map((l) => l.action)).toEqual([
      TASK_LOG.autoAssigned.action,
    ]);
    expect(t.notices).toEqual(['assigned']);
    expect(t.round).toBe(false);
  });

  it("a driver's completion credits and congratulates; staff's credits and tells, never congratulates", () => {
    const mine = decide('en_proceso', 'complete', 'driver');
    const when = new Date(at.getTime() - 60_000);
    const held = active({ onHold: true, holdReason: 'x' });
    expect(mine.to).toBe('finalizada');
    expect(mine.patch(held, { at, actor: driver, when, proof: 'scan', droppedAt: 'place-2' })).toEqual({
      completedAt: when,
      lateS: null,
      // CONTRACT §20: how it was proven and where the trailer was really left.
      proof: 'scan',
      droppedAtLocationId: 'place-2',
      creditedTo: driver.id,
      returnReason: null,
      lastReturnReason: null,
      onHold: false,
      holdReason: null,
      holdSource: null,
    });
    expect(mine.events(held, { at, actor: driver, when })).toEqual([
      { type: 'completed', driverId: driver.id, from: 'en_proceso', to: 'finalizada', at: when },
    ]);
    expect(mine.notices).toEqual(['congratulations']);
    expect(mine.credit).toBe(1);
    expect(mine.round).toBe(true);
    expect(refusal('bolsa_trabajo', 'complete', 'driver')).toBe(ERR.notYourTask);
    expect(refusal('finalizada', 'complete', 'driver')).toBe(ERR.notYourTask);

    const byStaff = decide('en_proceso', 'complete', 'staff');
    expect(byStaff.notices).toEqual(['closedByStaff']);
    expect(byStaff.credit).toBe(1);
    // A pool task finished by staff: nobody credited, told or freed.
    const pool = decide('bolsa_trabajo', 'complete', 'staff');
    expect(pool.patch(task(), { at, actor: staff })).toMatchObject({
      creditedTo: null,
      completedAt: at,
      proof: 'staff',
      droppedAtLocationId: null,
    });
    expect(pool.notices).toEqual([]);
    expect(pool.round).toBe(false);
    expect(pool.logs(task(), { at, actor: staff, driverName: null })[0]!.details).toBe(
      TASK_LOG.completed.details(task(), null),
    );
  });

  it("a driver's return keeps its reason and who returned it; a damaged trailer holds the task", () => {
    const t = decide('en_proceso', 'return', 'driver');
    const when = new Date(at.getTime() - 1000);
    const plain: Facts = { at, actor: driver, reason: 'Otro', when };
    expect(t.patch(active(), plain)).toEqual({
      assignedTo: null,
      assignedAt: null,
      returnReason: 'Otro',
      returnedBy: driver.id,
      returnedAt: when,
      lastReturnReason: 'Otro',
    });
    expect(t.events(active(), plain).map((e) => e.type)).toEqual(['returned']);
    expect(t.notices).toEqual(['returned']);
    expect(t.idle).toBe(true);
    expect(t.round).toBe(true);

    const damaged: Facts = { at, actor: driver, reason: 'Remolque dañado', when };
    expect(t.patch(active(), damaged)).toMatchObject({ onHold: true, holdReason: 'Remolque dañado' });
    expect(t.events(active(), damaged)).toEqual([
      {
        type: 'returned',
        driverId: driver.id,
        from: 'en_proceso',
        to: 'bolsa_trabajo',
        reason: 'Remolque dañado',
        at: when,
      },
      { type: 'held', from: 'bolsa_trabajo', to: 'bolsa_trabajo', reason: 'Remolque dañado' },
    ]);
    expect(t.logs(active(), damaged).map((l) => l.action)).toEqual([
      TASK_LOG.held.action,
      TASK_LOG.returned.action,
    ]);
    expect(refusal('bolsa_trabajo', 'return', 'driver')).toBe(ERR.notYourTask);
  });

  it('staff moving a task to the pool keep no reason; a released driver is not told', () => {
    const toPool = decide('en_proceso', 'to-pool', 'staff');
    expect(toPool.patch(active(), { at, actor: staff })).toEqual({
      assignedTo: null,
      assignedAt: null,
      returnReason: null,
    });
    expect(toPool.events(active(), { at, actor: staff })).toEqual([
      { type: 'status_changed', driverId: driver.id, from: 'en_proceso', to: 'bolsa_trabajo' },
    ]);
    expect(toPool.notices).toEqual(['withdrawn']);
    expect([toPool.idle, toPool.round]).toEqual([true, true]);

    const released = decide('en_proceso', 'release-driver', 'staff');
    expect(released.notices).toEqual([]);
    expect(released.logs(active(), { at, actor: staff, driverName: driver.name })).toEqual([
      { action: TASK_LOG.released.action, details: TASK_LOG.released.details(active(), driver.name) },
    ]);
    expect(released.round).toBe(true);
  });

  it('holds only pool tasks, restarting their clock when the hold starts; a release is matched at once', () => {
    const hold = decide('bolsa_trabajo', 'hold', 'staff');
    expect(hold.to).toBe('same');
    expect(hold.patch(task(), { at, actor: staff, reason: 'Revisar' })).toEqual({
      onHold: true,
      holdReason: 'Revisar',
      holdSource: 'staff',
      statusSince: at,
    });
    // A new reason for a held task keeps its clock; no reason said is none.
    expect(hold.patch(task({ onHold: true }), { at, actor: staff })).toEqual({
      onHold: true,
      holdReason: null,
      holdSource: 'staff',
    });
    expect(hold.round).toBe(false);
    expect(refusal('en_proceso', 'hold', 'staff')).toBe(ERR.holdOnlyPool);
    expect(refusal('finalizada', 'hold', 'staff')).toBe(ERR.holdOnlyPool);

    const release = decide('bolsa_trabajo', 'release', 'staff');
    const held = task({ onHold: true, holdReason: 'Revisar' });
    expect(release.patch(held, { at, actor: staff })).toEqual({
      onHold: false,
      holdReason: null,
      holdSource: null,
      statusSince: at,
    });
    expect(release.events(held, { at, actor: staff })[0]).toMatchObject({
      type: 'released',
      reason: 'Revisar',
    });
    expect(release.round).toBe(true);
  });

  it('a reopened task takes the credit back; a deleted in-process task frees and tells its driver', () => {
    const reopen = decide('finalizada', 'reopen', 'staff');
    const done = task({ status: 'finalizada', assignedTo: driver.id, creditedTo: driver.id });
    expect(reopen.to).toBe('bolsa_trabajo');
    expect(reopen.credit).toBe(-1);
    expect(reopen.events(done, { at, actor: staff })).toEqual([
      { type: 'reopened', driverId: driver.id, from: 'finalizada', to: 'bolsa_trabajo' },
    ]);
    expect(reopen.round).toBe(true);
    // CONTRACT §20: reopened, it is not late any more.
    const reopened = reopen.patch(task({ ...done, dueAt: at }), { at, actor: staff });
    expect(reopened).toMatchObject({ completedAt: null, lateS: null, creditedTo: null, assignedTo: null });
    expect(reopened).not.toHaveProperty('dueAt');

    const gone = decide('en_proceso', 'delete', 'staff');
    expect(gone.to).toBe('deleted');
    expect([gone.notices, gone.idle, gone.round]).toEqual([['withdrawn'], true, true]);
    const poolGone = decide('bolsa_trabajo', 'delete', 'staff');
    expect([poolGone.notices, poolGone.idle, poolGone.round]).toEqual([[], false, false]);
  });

  it('a round follows a creation of an automatic type, and an edit of a pool task only when its type changed', () => {
    const create = decide('new', 'create', 'staff');
    expect(create.to).toBe('bolsa_trabajo');
    expect(roundFollows(create, task(), { at, actor: staff })).toBe(true);
    expect(roundFollows(create, task({ vehicleType: 'swap' }), { at, actor: staff })).toBe(false);

    const edit = decide('bolsa_trabajo', 'update', 'staff');
    expect(roundFollows(edit, task(), { at, actor: staff, edit: { title: 'Recolocar' } })).toBe(false);
    expect(
      roundFollows(edit, task(), { at, actor: staff, edit: { vehicleType: 'semiremolque_out_km0' } }),
    ).toBe(true);
    const activeEdit = decide('en_proceso', 'update', 'staff');
    expect(
      roundFollows(activeEdit, active(), { at, actor: staff, edit: { vehicleType: 'semiremolque_out_km0' } }),
    ).toBe(false);
    // The log names the task as it reads after the edit.
    const f: Facts = { at, actor: staff, edit: { trailerId: 'R-200' }, fields: ['remolque'] };
    expect(edit.logs(task(), f)[0]!.details).toBe(
      TASK_LOG.updated.details({ ...task(), trailerId: 'R-200' }, ['remolque']),
    );
  });

  it('a completion records how late it was after the deadline, from its believed time (CONTRACT §20)', () => {
    const due = new Date(at.getTime() - 12 * 60_000);
    const late = active({ dueAt: due });
    const mine = decide('en_proceso', 'complete', 'driver');
    // 12 min late at the transaction's instant; an offline completion 13 min earlier was on time: 0.
    expect(mine.patch(late, { at, actor: driver })).toMatchObject({ completedAt: at, lateS: 720 });
    const before = new Date(due.getTime() - 60_000);
    expect(mine.patch(late, { at, actor: driver, when: before })).toMatchObject({
      completedAt: before,
      lateS: 0,
    });
    // Rounded to the second; staff's completion of a pool task too.
    const pool = decide('bolsa_trabajo', 'complete', 'staff');
    expect(pool.patch(task({ dueAt: new Date(at.getTime() - 1_600) }), { at, actor: staff })).toMatchObject({
      lateS: 2,
    });
    expect(pool.patch(task(), { at, actor: staff })).toMatchObject({ lateS: null });
  });

  it('a changed deadline is an edit: its columns, an `updated` row, a log line naming it', () => {
    const edit = decide('bolsa_trabajo', 'update', 'staff');
    const dueAt = new Date(at.getTime() + 3_600_000);
    const f: Facts = { at, actor: staff, edit: { dueAt }, fields: [TASK_FIELD_LABELS.due_at] };
    expect(edit.to).toBe('same');
    expect(edit.patch(task(), f)).toEqual({ dueAt });
    expect(edit.events(task(), f)).toEqual([{ type: 'updated', from: 'bolsa_trabajo', to: 'bolsa_trabajo' }]);
    expect(edit.logs(task(), f)).toEqual([
      { action: TASK_LOG.updated.action, details: TASK_LOG.updated.details(task(), ['hora límite']) },
    ]);
    expect(roundFollows(edit, task(), f)).toBe(false);
  });
});
