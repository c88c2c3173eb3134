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
import { db, tx } from '../db';
import { forUpdate } from '../db/dialect';
import { punchCorrections, punches, tasks, users, type PunchRow, type UserRow } from '../db/tables';
import { now, nowMs } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import type { UserActor } from './activity';
import { record } from '../changes/commit';
import { logActivity } from './activity';
import { actionTime } from './idempotency';

export async function timeclockStatus(userId: string): Promise<TimeclockStatus> {
  const at = nowMs();
  const recent = await db
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
    .orderBy(desc(punches.timestamp), desc(sql`rowid`));
  const latest = recent[0];
  const status = !latest ? 'not_clocked_in' : latest.clockType === 'entrada' ? 'clocked_in' : 'clocked_out';
  const lastOf = (type: ClockType) =>
    recent.find((p) => p.clockType === type)?.timestamp.toISOString() ?? null;
  const today = madridDayRange(madridDay(at));
  const [todays] = await db
    .select({ n: count() })
    .from(punches)
    .where(
      and(
        eq(punches.userId, userId),
        gte(punches.timestamp, new Date(today.start)),
        lt(punches.timestamp, new Date(today.end)),
        isNull(punches.deletedAt),
      ),
    );
  return {
    status,
    can_clock_in: status !== 'clocked_in',
    can_clock_out: status === 'clocked_in',
    last_entrada: lastOf('entrada'),
    last_salida: lastOf('salida'),
    punches_today: todays?.n ?? 0,
  };
}

const holdsActiveTask = async (userId: string): Promise<boolean> =>
  (
    await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.assignedTo, userId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt)))
      .limit(1)
  ).length > 0;

/**
 * Locks the driver's row until the transaction ends (PostgreSQL; SQLite's one writer is alone already):
 * every decision from a driver's punches (a punch, a correction) takes it first, so they run one at a time.
 */
async function lockDriver(userId: string): Promise<void> {
  await forUpdate(db.select({ id: users.id }).from(users).where(eq(users.id, userId)));
}

/** The driver's latest punch (any type, not removed), if any. */
const previousPunchAt = async (userId: string): Promise<Date | null> =>
  (
    await db
      .select({ timestamp: punches.timestamp })
      .from(punches)
      .where(and(eq(punches.userId, userId), isNull(punches.deletedAt)))
      .orderBy(desc(punches.timestamp))
      .limit(1)
  )[0]?.timestamp ?? null;

/**
 * Records a punch the status allows; a clock-in makes the driver available (and idle since then). From
 * the phone's offline queue, `clientTime` is the punch's time when plausible (CONTRACT §16: past, within
 * 12 h, after the previous punch), and the punch is marked `offline`.
 */
export async function punch(
  user: UserRow,
  clockType: ClockType,
  clientTime?: string,
): Promise<PunchResponse> {
  const serverNow = now();
  // The status that decides is read in the transaction that writes the punch: two clock-ins at once
  // cannot both see "not clocked in" (SQLite runs one write transaction at a time; PostgreSQL: the
  // driver's row is locked first, so the second punch reads the status after the first has committed).
  const at = await tx(async () => {
    await lockDriver(user.id);
    const { status } = await timeclockStatus(user.id);
    if (clockType === 'entrada' && status === 'clocked_in') throw conflict(ERR.alreadyClockedIn);
    if (clockType === 'salida') {
      if (status !== 'clocked_in') throw conflict(ERR.notClockedIn);
      if (await holdsActiveTask(user.id)) throw conflict(ERR.salidaWithTask);
    }
    const punchedAt = actionTime(clientTime, serverNow, await previousPunchAt(user.id));
    const offline = punchedAt !== serverNow;
    await db
      .insert(punches)
      .values({ id: crypto.randomUUID(), userId: user.id, clockType, timestamp: punchedAt, offline });
    if (clockType === 'entrada')
      await db.update(users).set({ idleSince: punchedAt }).where(eq(users.id, user.id));
    await logActivity(
      'timeclock',
      user,
      ACCOUNT_LOG.punch.action[clockType],
      ACCOUNT_LOG.punch.details(user.name, clockType, formatTime(punchedAt)),
    );
    const after = await timeclockStatus(user.id);
    record((changes) => {
      changes.person({ kind: 'timeclock', userId: user.id, status: after });
      changes.figuresChanged();
      if (clockType === 'entrada') changes.roundAfter = true;
    });
    return punchedAt;
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
async function recordCorrection(
  actor: UserActor,
  punch: PunchRow,
  driverName: string,
  action: PunchCorrectionAction,
  reason: string,
  at: Date,
): Promise<void> {
  await db.insert(punchCorrections).values({ punchId: punch.id, action, reason, actorId: actor.id, at });
  await logActivity(
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
 * After a correction commits (call inside its transaction, with the driver's status read there once the
 * correction is written): the driver's screen and Control Conductores follow; a driver now clocked in
 * may get work.
 */
function afterCorrection(driverId: string, wasClockedIn: boolean, status: TimeclockStatus): void {
  record((changes) => {
    changes.person({ kind: 'timeclock', userId: driverId, status });
    changes.figuresChanged();
    if (!wasClockedIn && status.status === 'clocked_in') changes.roundAfter = true;
  });
}

/**
 * `POST /admin/timeclock/punches`: a punch the driver forgot, marked corrected. The driver must be an
 * approved, live conductor (unknown → 404, anyone else → 409) and the time in the past (400).
 */
export async function addPunch(actor: UserActor, input: AddPunchData): Promise<PunchCorrectionResponse> {
  const at = now();
  const timestamp = new Date(input.timestamp);
  if (timestamp.getTime() > at.getTime()) throw badRequest(SUPERVISION_ERR.punchInFuture);
  const row = await tx(async () => {
    // The driver's row locked: two corrections adding the same punch at once store one (PostgreSQL).
    const [driver] = await forUpdate(
      db
        .select()
        .from(users)
        .where(and(eq(users.id, input.user_id), isNull(users.deletedAt)))
        .limit(1),
    );
    if (!driver) throw notFound(ERR.userNotFound);
    if (driver.role !== 'conductor' || !driver.isApproved) throw conflict(SUPERVISION_ERR.punchNotDriver);
    const [duplicate] = await db
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
      .limit(1);
    if (duplicate) throw conflict(SUPERVISION_ERR.punchDuplicate);
    const wasClockedIn = (await timeclockStatus(driver.id)).status === 'clocked_in';
    const [punch] = await db
      .insert(punches)
      .values({
        id: crypto.randomUUID(),
        userId: driver.id,
        clockType: input.clock_type,
        timestamp,
        corrected: true,
      })
      .returning();
    await recordCorrection(actor, punch!, driver.name, 'added', input.reason, at);
    const status = await timeclockStatus(driver.id);
    if (!wasClockedIn && status.status === 'clocked_in')
      await db.update(users).set({ idleSince: at }).where(eq(users.id, driver.id));
    afterCorrection(driver.id, wasClockedIn, status);
    return punch!;
  });
  return { message: PUNCH_CORRECTION.added, punch: presentPunch(row) };
}

/**
 * `DELETE /admin/timeclock/punches/{id}`: a wrong punch leaves every figure. The row stays, with
 * deleted_at, for the history; an unknown or already removed punch → 404.
 */
export async function removePunch(
  actor: UserActor,
  punchId: string,
  input: RemovePunchData,
): Promise<PunchCorrectionResponse> {
  const at = now();
  const row = await tx(async () => {
    // The punch's row locked: of two removals at once, the second finds it removed (404, PostgreSQL).
    const [punch] = await forUpdate(
      db
        .select()
        .from(punches)
        .where(and(eq(punches.id, punchId), isNull(punches.deletedAt)))
        .limit(1),
    );
    if (!punch) throw notFound(SUPERVISION_ERR.punchNotFound);
    const [driver] = await forUpdate(
      db.select({ name: users.name }).from(users).where(eq(users.id, punch.userId)).limit(1),
    );
    const wasClockedIn = (await timeclockStatus(punch.userId)).status === 'clocked_in';
    const [removed] = await db
      .update(punches)
      .set({ deletedAt: at })
      .where(eq(punches.id, punch.id))
      .returning();
    await recordCorrection(actor, punch, driver?.name ?? '', 'removed', input.reason, at);
    afterCorrection(punch.userId, wasClockedIn, await timeclockStatus(punch.userId));
    return removed!;
  });
  return { message: PUNCH_CORRECTION.removed, punch: presentPunch(row) };
}
