// The driver's time clock (CONTRACT §7). The latest punch of the last 24 h decides the status, so a
// night shift across midnight stays clocked in; "today" is the current Madrid calendar day.
import crypto from 'node:crypto';
import { and, count, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { ClockType } from '@shared/enums';
import { TIMECLOCK_WINDOW_MS } from '@shared/constants';
import { ACCOUNT_LOG, ERR, PUNCH_MSG } from '@shared/labels';
import type { PunchResponse, TimeclockStatus } from '@shared/schemas';
import { formatTime, madridDay, madridDayRange } from '@shared/time';
import { db, tx } from '../db';
import { punches, tasks, users, type UserRow } from '../db/schema';
import { now, nowMs } from '../clock';
import { conflict } from '../http/errors';
import * as emit from '../realtime/emit';
import { logActivity } from './activity';
import { runAssignment } from './assignment';

export function timeclockStatus(userId: string): TimeclockStatus {
  const at = nowMs();
  const recent = db
    .select({ clockType: punches.clockType, timestamp: punches.timestamp })
    .from(punches)
    .where(and(eq(punches.userId, userId), gt(punches.timestamp, new Date(at - TIMECLOCK_WINDOW_MS))))
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

/** Records a punch the status allows; a clock-in makes the driver available (and idle since now). */
export function punch(user: UserRow, clockType: ClockType): PunchResponse {
  const at = now();
  tx(() => {
    const { status } = timeclockStatus(user.id);
    if (clockType === 'entrada' && status === 'clocked_in') throw conflict(ERR.alreadyClockedIn);
    if (clockType === 'salida') {
      if (status !== 'clocked_in') throw conflict(ERR.notClockedIn);
      if (holdsActiveTask(user.id)) throw conflict(ERR.salidaWithTask);
    }
    db.insert(punches).values({ id: crypto.randomUUID(), userId: user.id, clockType, timestamp: at }).run();
    if (clockType === 'entrada') db.update(users).set({ idleSince: at }).where(eq(users.id, user.id)).run();
    logActivity(
      'timeclock',
      user,
      ACCOUNT_LOG.punch.action[clockType],
      ACCOUNT_LOG.punch.details(user.name, clockType, formatTime(at)),
    );
  });
  emit.timeclockChanged(user.id, timeclockStatus(user.id));
  emit.figuresChanged();
  if (clockType === 'entrada') runAssignment();
  return { message: PUNCH_MSG[clockType], timestamp: at.toISOString() };
}
