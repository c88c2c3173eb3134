// The driver's time clock (CONTRACT §7) and the supervisors' corrections of it (§15). The latest punch
// of the last 24 h decides the status, so a night shift across midnight stays clocked in; "today" is
// the current Madrid calendar day. A punch removed by a correction (deleted_at) counts nowhere.
import crypto from 'node:crypto';
import { and, count, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { ClockType } from '@shared/enums';
import { TIMECLOCK_WINDOW_MS } from '@shared/constants';
import { ACCOUNT_LOG, ERR, PUNCH_CORRECTION, PUNCH_MSG, SUPERVISION_ERR } from '@shared/labels';
import type {
  AddPunchData,
  Punch,
  PunchCorrectionAction,
  PunchCorrectionResponse,
  PunchResponse,
  RemovePunchData,
  TimeclockStatus,
} from '@shared/schemas';
import { formatDateTime, formatTime, madridDay, madridDayRange } from '@shared/time';
import { afterCommit, db, tx } from '../db';
import { punchCorrections, punches, tasks, users, type PunchRow, type UserRow } from '../db/schema';
import { now, nowMs } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import type { Actor } from './activity';
import * as emit from '../realtime/emit';
import { logActivity } from './activity';
import { runAssignment } from './assignment';
import { actionTime } from './idempotency';

export function timeclockStatus(userId: string): TimeclockStatus {
  const at = nowMs();
  const recent = db
    .select({ clockType: punches.clockType, timestamp: punches.timestamp })
    .from(punches)
    .where(
      and(
        eq(punches.userId, userId),
        gt(punches.timestamp, new Date(at - TIMECLOCK_WINDOW_MS)),
        isNull(punches.deletedAt),
      ),
    )
    // rowid breaks ties between punches stored in the same millisecond: the later insert wins.
    .orderBy(desc(punches.timestamp), desc(sql`rowid`))
    .all();
  const latest = recent[0];
  const status = !latest ? 'not_clocked_in' : latest.clockType === 'entrada' ? 'clocked_in' : 'clocked_out';
  const lastOf = (type: ClockType) =>
    recent.find((p) => p.clockType === type)?.timestamp.toISOString() ?? null;
  const today = madridDayRange(madridDay(at));
  const punchesToday =
    db
      .select({ n: count() })
      .from(punches)
      .where(
        and(
          eq(punches.userId, userId),
          gte(punches.timestamp, new Date(today.start)),
          lt(punches.timestamp, new Date(today.end)),
          isNull(punches.deletedAt),
        ),
      )
      .get()?.n ?? 0;
  return {
    status,
    can_clock_in: status !== 'clocked_in',
    can_clock_out: status === 'clocked_in',
    last_entrada: lastOf('entrada'),
    last_salida: lastOf('salida'),
    punches_today: punchesToday,
  };
}

const holdsActiveTask = (userId: string): boolean =>
  !!db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.assignedTo, userId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt)))
    .get();

/** The driver's latest punch (any type, not removed), if any. */
const previousPunchAt = (userId: string): Date | null =>
  db
    .select({ timestamp: punches.timestamp })
    .from(punches)
    .where(and(eq(punches.userId, userId), isNull(punches.deletedAt)))
    .orderBy(desc(punches.timestamp))
    .limit(1)
    .get()?.timestamp ?? null;

/**
 * Records a punch the status allows; a clock-in makes the driver available (and idle since then). From
 * the phone's offline queue, `clientTime` is the punch's time when plausible (CONTRACT §16: past, within
 * 12 h, after the previous punch), and the punch is marked `offline`.
 */
export function punch(user: UserRow, clockType: ClockType, clientTime?: string): PunchResponse {
  const serverNow = now();
  let at = serverNow;
  tx(() => {
    const { status } = timeclockStatus(user.id);
    if (clockType === 'entrada' && status === 'clocked_in') throw conflict(ERR.alreadyClockedIn);
    if (clockType === 'salida') {
      if (status !== 'clocked_in') throw conflict(ERR.notClockedIn);
      if (holdsActiveTask(user.id)) throw conflict(ERR.salidaWithTask);
    }
    at = actionTime(clientTime, serverNow, previousPunchAt(user.id));
    const offline = at !== serverNow;
    db.insert(punches)
      .values({ id: crypto.randomUUID(), userId: user.id, clockType, timestamp: at, offline })
      .run();
    if (clockType === 'entrada') db.update(users).set({ idleSince: at }).where(eq(users.id, user.id)).run();
    logActivity(
      'timeclock',
      user,
      ACCOUNT_LOG.punch.action[clockType],
      ACCOUNT_LOG.punch.details(user.name, clockType, formatTime(at)),
    );
    afterCommit(() => {
      emit.timeclockChanged(user.id, timeclockStatus(user.id));
      emit.figuresChanged();
      if (clockType === 'entrada') runAssignment();
    });
  });
  return { message: PUNCH_MSG[clockType], timestamp: at.toISOString() };
}

// ---- corrections (CONTRACT §15: admin and manager) ---------------------------------------------------

const presentPunch = (p: PunchRow): Punch => ({
  id: p.id,
  clock_type: p.clockType,
  timestamp: p.timestamp.toISOString(),
  corrected: p.corrected,
  offline: p.offline,
});

/** The correction's history row and its activity log line, inside the caller's transaction. */
function recordCorrection(
  actor: Actor,
  punch: PunchRow,
  driverName: string,
  action: PunchCorrectionAction,
  reason: string,
  at: Date,
): void {
  db.insert(punchCorrections).values({ punchId: punch.id, action, reason, actorId: actor.id, at }).run();
  logActivity(
    'timeclock',
    actor,
    PUNCH_CORRECTION.log.action[action],
    PUNCH_CORRECTION.log.details(
      action,
      driverName,
      punch.clockType,
      formatDateTime(punch.timestamp),
      reason,
    ),
  );
}

/**
 * After a correction commits (call inside its transaction): the driver's screen and Control Conductores
 * follow; a driver now clocked in may get work.
 */
function afterCorrection(driverId: string, wasClockedIn: boolean): void {
  afterCommit(() => {
    const status = timeclockStatus(driverId);
    emit.timeclockChanged(driverId, status);
    emit.figuresChanged();
    if (!wasClockedIn && status.status === 'clocked_in') runAssignment();
  });
}

/**
 * `POST /admin/timeclock/punches`: a punch the driver forgot, marked corrected. The driver must be an
 * approved, live conductor (unknown → 404, anyone else → 409) and the time in the past (400).
 */
export function addPunch(actor: Actor, input: AddPunchData): PunchCorrectionResponse {
  const at = now();
  const timestamp = new Date(input.timestamp);
  if (timestamp.getTime() > at.getTime()) throw badRequest(SUPERVISION_ERR.punchInFuture);
  let wasClockedIn = false;
  const row = tx(() => {
    const driver = db
      .select()
      .from(users)
      .where(and(eq(users.id, input.user_id), isNull(users.deletedAt)))
      .get();
    if (!driver) throw notFound(ERR.userNotFound);
    if (driver.role !== 'conductor' || !driver.isApproved) throw conflict(SUPERVISION_ERR.punchNotDriver);
    const duplicate = db
      .select({ id: punches.id })
      .from(punches)
      .where(
        and(
          eq(punches.userId, driver.id),
          eq(punches.clockType, input.clock_type),
          eq(punches.timestamp, timestamp),
          isNull(punches.deletedAt),
        ),
      )
      .get();
    if (duplicate) throw conflict(SUPERVISION_ERR.punchDuplicate);
    wasClockedIn = timeclockStatus(driver.id).status === 'clocked_in';
    const punch = db
      .insert(punches)
      .values({
        id: crypto.randomUUID(),
        userId: driver.id,
        clockType: input.clock_type,
        timestamp,
        corrected: true,
      })
      .returning()
      .get();
    recordCorrection(actor, punch, driver.name, 'added', input.reason, at);
    if (!wasClockedIn && timeclockStatus(driver.id).status === 'clocked_in')
      db.update(users).set({ idleSince: at }).where(eq(users.id, driver.id)).run();
    afterCorrection(driver.id, wasClockedIn);
    return punch;
  });
  return { message: PUNCH_CORRECTION.added, punch: presentPunch(row) };
}

/**
 * `DELETE /admin/timeclock/punches/{id}`: a wrong punch leaves every figure. The row stays, with
 * deleted_at, for the history; an unknown or already removed punch → 404.
 */
export function removePunch(actor: Actor, punchId: string, input: RemovePunchData): PunchCorrectionResponse {
  const at = now();
  let wasClockedIn = false;
  const row = tx(() => {
    const punch = db
      .select()
      .from(punches)
      .where(and(eq(punches.id, punchId), isNull(punches.deletedAt)))
      .get();
    if (!punch) throw notFound(SUPERVISION_ERR.punchNotFound);
    const driver = db.select({ name: users.name }).from(users).where(eq(users.id, punch.userId)).get();
    wasClockedIn = timeclockStatus(punch.userId).status === 'clocked_in';
    const removed = db
      .update(punches)
      .set({ deletedAt: at })
      .where(eq(punches.id, punch.id))
      .returning()
      .get();
    recordCorrection(actor, punch, driver?.name ?? '', 'removed', input.reason, at);
    afterCorrection(punch.userId, wasClockedIn);
    return removed;
  });
  return { message: PUNCH_CORRECTION.removed, punch: presentPunch(row) };
}
