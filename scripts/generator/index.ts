// The demo yard generator: a realistic Spanish line-haul yard written straight into the open
// database (server/db), deterministic from a seed and the `now` it is generated for. The demo, the
// benchmarks and the tests that need volume all build on generateYard().
import { and, count as countOf, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ROLES, TASK_STATUSES, type Role, type TaskStatus } from '@shared/enums';
import { ACCOUNT_LOG, PENDING_NOTIFICATION } from '@shared/labels';
import { db, tx } from '../../server/db';
import {
  activityLog,
  gateVisits,
  notifications,
  presenceIntervals,
  punches,
  taskEvents,
  tasks,
  users,
} from '../../server/db/tables';
import { now as clockNow } from '../../server/clock';
import { hashPassword } from '../../server/services/passwords';
import { settleAllTrailers } from '../../server/services/yard';
import { writeGateHistory } from './gate';
import { makePeople, type Person } from './people';
import { Rng } from './random';
import { planShifts, writeShifts } from './shifts';
import { TaskSimulation } from './tasks';
import { yardCatalogue, yardPlan } from './vocabulary';
import { dropIndexes, openWriter } from './writer';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The tables that take hundreds of thousands of rows: indexed once, after they are filled. */
const BULK_TABLES = [tasks, taskEvents, activityLog, notifications];

export interface YardOptions {
  seed: number;
  /** The moment the yard is generated for (default: the server clock's now). */
  now?: Date;
  gestores?: number;
  managers?: number;
  drivers?: number;
  /** Registrations waiting for an admin's approval. */
  pendingUsers?: number;
  historyDays?: number;
  /** Finished (and a few deleted) tasks spread over the history days. */
  historicalTasks?: number;
  /** Tasks in bolsa_trabajo and en_proceso now. */
  openTasks?: number;
  /** Drivers clocked in now (default: 60 % of them). */
  clockedInDrivers?: number;
  /**
   * Open tasks held by a clocked-in driver, one each, so at most the clocked-in drivers (default: a
   * third of the open tasks, leaving a clocked-in driver free).
   */
  inProgressTasks?: number;
  /** Notifications are written for the last this many days of history. */
  notificationDays?: number;
  passwords?: Partial<Record<Role, string>>;
  emailDomain?: string;
}

export interface YardLogin {
  id: string;
  role: Role;
  name: string;
  email: string;
  password: string;
}

export interface YardCounts {
  users: Record<Role, number>;
  pendingUsers: number;
  clockedInDrivers: number;
  trailers: number;
  tasks: Record<TaskStatus, number>;
  deletedTasks: number;
  taskEvents: number;
  punches: number;
  presenceIntervals: number;
  notifications: number;
  activityLog: number;
  /** Closed visits of the gate's history (scripts/generator/gate.ts). */
  gateVisits: number;
}

export interface YardResult {
  /** Every approved account, admin first; pending accounts cannot log in and are left out. */
  logins: YardLogin[];
  counts: YardCounts;
}

export const DEFAULT_PASSWORDS: Record<Role, string> = {
  admin: 'admin1234',
  gestor: 'gestor1234',
  manager: 'manager1234',
  conductor: 'conductor1234',
};

const DEFAULTS = {
  gestores: 2,
  managers: 1,
  drivers: 8,
  pendingUsers: 2,
  historyDays: 30,
  openTasks: 24,
  notificationDays: 2,
  emailDomain: 'torre.local',
};

/** What one driver does in a day, about 120 movements a month: history size from drivers and back. */
const TASKS_PER_DRIVER_DAY = 120 / 30;
/** Drivers enough for a history of that many tasks (the CLI's default when only --tasks is given). */
export const driversFor = (historicalTasks: number, historyDays = DEFAULTS.historyDays): number =>
  Math.max(DEFAULTS.drivers, Math.ceil(historicalTasks / (historyDays * TASKS_PER_DRIVER_DAY)));

function count(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`generateYard: ${name} debe ser un entero ≥ 0 (es ${n})`);
  return n;
}

/**
 * Fills an empty, migrated database (openDb + runMigrations first) with a living yard, in one
 * transaction. Same seed and `now` → the same rows (ids, emails, plates, times); only the bcrypt
 * salts differ.
 */
export async function generateYard(options: YardOptions): Promise<YardResult> {
  const nowMs = (options.now ?? clockNow()).getTime();
  const o = {
    gestores: count('gestores', options.gestores, DEFAULTS.gestores),
    managers: count('managers', options.managers, DEFAULTS.managers),
    drivers: count('drivers', options.drivers, DEFAULTS.drivers),
    pendingUsers: count('pendingUsers', options.pendingUsers, DEFAULTS.pendingUsers),
    historyDays: count('historyDays', options.historyDays, DEFAULTS.historyDays),
    openTasks: count('openTasks', options.openTasks, DEFAULTS.openTasks),
    notificationDays: count('notificationDays', options.notificationDays, DEFAULTS.notificationDays),
  };
  const drivers = o.drivers;
  const historicalTasks = count(
    'historicalTasks',
    options.historicalTasks,
    Math.round(drivers * o.historyDays * TASKS_PER_DRIVER_DAY),
  );
  const clockedIn = Math.min(
    drivers,
    count('clockedInDrivers', options.clockedInDrivers, Math.ceil(drivers * 0.6)),
  );
  const inProgress = count(
    'inProgressTasks',
    options.inProgressTasks,
    Math.min(Math.max(0, clockedIn - 1), Math.round(o.openTasks / 3)),
  );
  if (drivers === 0 && historicalTasks + o.openTasks > 0)
    throw new Error('generateYard: hacen falta conductores para generar tareas');
  if (o.historyDays === 0 && historicalTasks > 0)
    throw new Error('generateYard: un historial de tareas necesita al menos un día');
  const passwords = { ...DEFAULT_PASSWORDS, ...options.passwords };
  const emailDomain = options.emailDomain ?? DEFAULTS.emailDomain;

  // bcrypt is slow on purpose: one hash per distinct password, shared by every account that uses it.
  const hashes = Object.fromEntries(
    await Promise.all(ROLES.map(async (role) => [role, await hashPassword(passwords[role])] as const)),
  ) as Record<Role, string>;

  const root = new Rng(options.seed);
  const historyStart = nowMs - o.historyDays * DAY;
  const people = makePeople(root.fork('people'), { admins: 1, ...o }, { nowMs, historyStart, emailDomain });
  const admin = people.admins[0];
  const staff: [Person, number][] = [
    ...people.gestores.map((p) => [p, 7] as [Person, number]),
    ...people.managers.map((p) => [p, 2] as [Person, number]),
    [admin, 1],
  ];

  let trailers = 0;
  await tx(async () => {
    // Read in the transaction that writes: nothing else can add a user between the check and the yard.
    const [existing] = await db.select({ n: countOf() }).from(users);
    if (existing.n > 0)
      throw new Error('generateYard: la base de datos ya tiene usuarios; genera el patio en una base vacía');
    const rebuildIndexes = await dropIndexes(BULK_TABLES);
    const w = openWriter(root.fork('ids'));
    const everyone = [
      ...people.admins,
      ...people.gestores,
      ...people.managers,
      ...people.drivers,
      ...people.pending,
    ];
    for (const p of everyone)
      w.user({
        id: p.id,
        email: p.email,
        name: p.name,
        passwordHash: hashes[p.role],
        role: p.role,
        isApproved: p.isApproved,
        isOnline: false,
        taskTypes: p.taskTypes,
        movementsCount: 0,
        tokenVersion: 0,
        createdAt: new Date(p.createdAt),
        approvedAt: p.approvedAt === null ? null : new Date(p.approvedAt),
      });
    for (const p of everyone) {
      if (p === admin) continue;
      w.log(
        'auth',
        p,
        ACCOUNT_LOG.register.action,
        ACCOUNT_LOG.register.details(p.name, p.email, p.role),
        p.createdAt,
      );
      if (p.approvedAt !== null)
        w.log(
          'user',
          admin,
          ACCOUNT_LOG.approve.action,
          ACCOUNT_LOG.approve.details(p.name, p.email, p.role),
          p.approvedAt,
        );
    }
    for (const p of people.pending)
      for (const a of people.admins)
        w.notify(
          a.id,
          'user_pending',
          {
            title: PENDING_NOTIFICATION.title,
            message: PENDING_NOTIFICATION.message(p.name, p.email, p.role),
          },
          p.createdAt,
          { isRead: false },
        );

    const shiftRng = root.fork('shifts');
    const yardDrivers = planShifts(shiftRng, people.drivers, { nowMs, historyStart, clockedIn });
    await writeShifts(shiftRng, w, yardDrivers, nowMs);

    // A fleet large enough that a trailer waits a while between two moves; a yard with room for it.
    const fleet = Math.max(150, Math.ceil(historicalTasks / 40));
    const plan = yardPlan(fleet, Math.ceil(fleet / 5));
    const places = yardCatalogue(plan).map((p) => ({ ...p, id: w.location(p, historyStart) }));
    const sim = new TaskSimulation(
      root.fork('tasks'),
      root.fork('task-ids'),
      w,
      yardDrivers,
      staff,
      { nowMs, historyStart, notifyFrom: nowMs - o.notificationDays * DAY, fleet },
      { plan, places },
    );
    await sim.history(historicalTasks);
    sim.current(o.openTasks, inProgress);
    trailers = sim.trailerCount;
    writeGateHistory(root.fork('gate'), root.fork('gate-ids'), w, {
      nowMs,
      historyStart,
      staff: people.gestores.length ? people.gestores : [admin],
      places,
      taken: sim.hasPlate,
    });
    await w.flush();
    await rebuildIndexes();
    // Where every trailer stands now: the destination of its latest completed move.
    await settleAllTrailers();

    const staffRng = root.fork('activity');
    for (const d of yardDrivers)
      w.finishUser(d.person.id, {
        movements: d.movements,
        online: d.online,
        idleSince: d.idleSince,
        lastActivityAt: d.lastActivityAt,
      });
    for (const [p] of staff)
      w.finishUser(p.id, {
        movements: 0,
        online: false,
        idleSince: null,
        lastActivityAt: nowMs - staffRng.between(0.2, 30) * HOUR,
      });
    await w.flush();
  });

  const logins = [...people.admins, ...people.gestores, ...people.managers, ...people.drivers].map((p) => ({
    id: p.id,
    role: p.role,
    name: p.name,
    email: p.email,
    password: passwords[p.role],
  }));
  return { logins, counts: { ...(await countRows()), trailers, clockedInDrivers: clockedIn } };
}

/** What the database holds after generation (the summary the CLI prints). */
async function countRows(): Promise<Omit<YardCounts, 'trailers' | 'clockedInDrivers'>> {
  const rows = async (table: PgTable, where?: SQL) =>
    (await db.select({ n: countOf() }).from(table).where(where))[0].n;
  const byRole = Object.fromEntries(
    await Promise.all(
      ROLES.map(async (role) => [
        role,
        await rows(users, and(eq(users.role, role), eq(users.isApproved, true))),
      ]),
    ),
  ) as Record<Role, number>;
  const byStatus = Object.fromEntries(
    await Promise.all(
      TASK_STATUSES.map(async (s) => [
        s,
        await rows(tasks, and(eq(tasks.status, s), isNull(tasks.deletedAt))),
      ]),
    ),
  ) as Record<TaskStatus, number>;
  return {
    users: byRole,
    pendingUsers: await rows(users, eq(users.isApproved, false)),
    tasks: byStatus,
    deletedTasks: await rows(tasks, isNotNull(tasks.deletedAt)),
    taskEvents: await rows(taskEvents),
    punches: await rows(punches),
    presenceIntervals: await rows(presenceIntervals),
    notifications: await rows(notifications),
    activityLog: await rows(activityLog),
    gateVisits: await rows(gateVisits),
  };
}
