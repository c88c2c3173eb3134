// What each command does to a task (CONTRACT §5, §15), as one table: (status, command, role) → the
// columns written, the history rows, the activity-log lines, the notifications, whether the freed driver
// is idle from now, the credit of a movement and whether an assignment round follows — or the 409 that
// refuses it. The commands (./commands/) lock the task, look its move up here (decide) and hand it to
// apply.ts, which writes all of it. What a row of the table depends on besides the key (the driver
// named, a return's reason, an edit) comes in its Facts.
import type { HoldSource, ProofKind, TaskEventType, TaskStatus } from '@shared/enums';
import { isAutoAssigned, type ReturnReason } from '@shared/enums';
import { lateSeconds } from '@shared/deadline';
import { ERR, TASK_LOG } from '@shared/labels';
import type { TaskRow } from '../db/tables';
import { conflict } from '../http/errors';
import type { Actor, UserActor } from '../services/activity';

export type Command =
  | 'create'
  | 'update'
  | 'assign'
  | 'claim'
  | 'complete'
  | 'return'
  | 'to-pool'
  | 'hold'
  | 'release'
  | 'reopen'
  | 'delete'
  | 'release-driver';

/** Who moves it: staff (admin, manager, gestor), the driver themselves, or the engine's round. */
export type Role = 'staff' | 'driver' | 'engine';

/** Where a task stands before the command: a status, or not yet written. */
export type From = TaskStatus | 'new';

/**
 * The notifications a move sends: `assigned` to the driver given the task, `withdrawn` to the one who
 * lost it, `closedByStaff` / `congratulations` to the driver credited, `returned` to the task's creator
 * (unless they returned it themselves).
 */
export type Notice = 'assigned' | 'withdrawn' | 'closedByStaff' | 'congratulations' | 'returned';

/** Whether the engine's round follows: always, never, for a task of an automatic type, or for a pool task whose type was edited. */
export type Round = boolean | 'automatic' | 'type-edited';

/** What the table reads of the task (a new task has only what its creation gives). */
export type Subject = Pick<
  TaskRow,
  | 'id'
  | 'status'
  | 'title'
  | 'trailerId'
  | 'origin'
  | 'destination'
  | 'vehicleType'
  | 'assignedTo'
  | 'createdBy'
  | 'creditedTo'
  | 'onHold'
  | 'holdReason'
  | 'dueAt'
>;

/** What a move depends on besides the task and its key. */
export interface Facts {
  /** The transaction's instant. */
  at: Date;
  actor: Actor | null;
  /** assign / claim: the driver given the task. */
  driver?: UserActor;
  /** hold: who holds it (default staff; a damaged trailer's hold is `damage`, CONTRACT §19). */
  holdSource?: HoldSource;
  /** return: the driver's reason; hold: the reason given (undefined: none said). */
  reason?: string | null;
  /** complete / return: when it happened (an offline action's client_time, CONTRACT §16), else `at`. */
  when?: Date;
  /** update: the columns edited and their names for the log. */
  edit?: Partial<TaskRow>;
  fields?: string[];
  /** complete: the credited driver's name and new count (apply.ts); release-driver: the released driver's name. */
  driverName?: string | null;
  movements?: number;
  /** complete: how it was proven, and the place it was really left at when not the destination (CONTRACT §20). */
  proof?: ProofKind;
  droppedAt?: string | null;
}

/** One history row, without its task, actor and type defaults (apply.ts adds them). */
export interface EventSpec {
  type: TaskEventType;
  driverId?: string | null;
  from?: TaskStatus | null;
  to?: TaskStatus | null;
  reason?: string | null;
  at?: Date;
}

export interface LogLine {
  action: string;
  details: string;
}

export interface Transition {
  /** Where the task ends: a status, the one it had, or deleted (soft). */
  to: TaskStatus | 'same' | 'deleted';
  /** The columns written besides status (version, updated_at and status_since are apply.ts's). */
  patch: (row: Subject, f: Facts) => Partial<TaskRow>;
  events: (row: Subject, f: Facts) => EventSpec[];
  logs: (row: Subject, f: Facts) => LogLine[];
  notices: readonly Notice[];
  /** The driver who had it (assigned_to) is idle from now: the engine's "idle longest". */
  idle: boolean;
  /** +1: a movement for the driver who had it (and idle from now); -1: taken back from credited_to. */
  credit: 1 | 0 | -1;
  round: Round;
  /** The 409 when tasks_active_driver refuses the write (the driver holds a task already). */
  busy?: string;
}

/** A move the table refuses: the 409 it answers, nothing written. */
export interface Refusal {
  refuse: string;
}

/** A driver's return with this reason puts the task on hold until staff review it (CONTRACT §15). */
export const HOLDING_RETURN: ReturnReason = 'Remolque dañado';

// ---- the rows' parts -------------------------------------------------------------------------------

const assigning = (row: Subject, f: Facts): Partial<TaskRow> => ({
  assignedTo: f.driver!.id,
  assignedAt: f.at,
  returnReason: null,
  // Only staff reach a held task (the engine and a claim never do): assigning it by hand releases it.
  ...(row.onHold ? { onHold: false, holdReason: null, holdSource: null } : {}),
});

const assignEvents = (row: Subject, f: Facts): EventSpec[] => [
  ...(row.onHold ? [{ type: 'released' as const, from: row.status, to: row.status }] : []),
  { type: 'assigned', driverId: f.driver!.id, from: row.status, to: 'en_proceso' },
];

const assignLogs =
  (log: { action: string; details: (t: Subject, driver: string) => string }) =>
  (row: Subject, f: Facts): LogLine[] => [
    ...(row.onHold ? [line(TASK_LOG.unheld, TASK_LOG.unheld.details(row))] : []),
    line(log, log.details(row, f.driver!.name)),
  ];

const line = (log: { action: string }, details: string): LogLine => ({ action: log.action, details });

/** A task back in the pool without its driver; a driver's return keeps its reason (and holds when damaged). */
const unassigning = (row: Subject, f: Facts, driverReturn: boolean): Partial<TaskRow> => {
  const base: Partial<TaskRow> = { assignedTo: null, assignedAt: null, returnReason: null };
  if (!driverReturn) return base;
  const reason = f.reason ?? null;
  return {
    ...base,
    returnReason: reason,
    returnedBy: row.assignedTo,
    returnedAt: f.when ?? f.at,
    lastReturnReason: reason,
    ...(reason === HOLDING_RETURN ? { onHold: true, holdReason: reason, holdSource: 'staff' as const } : {}),
  };
};

const toPoolEvent = (row: Subject): EventSpec => ({
  type: 'status_changed',
  driverId: row.assignedTo,
  from: row.status,
  to: 'bolsa_trabajo',
});

const completing = (row: Subject, f: Facts): Partial<TaskRow> => ({
  completedAt: f.when ?? f.at,
  // CONTRACT §20: how late, from the believed completion time (§16's client_time rule).
  lateS: lateSeconds(f.when ?? f.at, row.dueAt),
  proof: f.proof ?? 'staff',
  droppedAtLocationId: f.droppedAt ?? null,
  creditedTo: row.status === 'en_proceso' ? row.assignedTo : null,
  returnReason: null,
  lastReturnReason: null,
  onHold: false,
  holdReason: null,
  holdSource: null,
});

const completedEvent = (row: Subject, f: Facts): EventSpec[] => [
  {
    type: 'completed',
    driverId: row.status === 'en_proceso' ? row.assignedTo : null,
    from: row.status,
    to: 'finalizada',
    at: f.when ?? f.at,
  },
];

const completedLog = (row: Subject, f: Facts): LogLine[] => [
  line(TASK_LOG.completed, TASK_LOG.completed.details(row, f.driverName ?? null)),
];

const deleting: Omit<Transition, 'notices' | 'idle' | 'round'> = {
  to: 'deleted',
  patch: () => ({}),
  events: (row) => [{ type: 'deleted', driverId: row.assignedTo, from: row.status }],
  logs: (row) => [line(TASK_LOG.deleted, TASK_LOG.deleted.details(row))],
  credit: 0,
};

const nothing = { notices: [], idle: false, credit: 0 } as const;

// ---- the table ---------------------------------------------------------------------------------

const key = (from: From, command: Command, role: Role) => `${from}|${command}|${role}`;
const TABLE = new Map<string, Transition | Refusal>();
const on = (from: readonly From[], command: Command, role: Role, entry: Transition | Refusal) => {
  for (const status of from) TABLE.set(key(status, command, role), entry);
};

const POOL = ['bolsa_trabajo'] as const;
const ACTIVE = ['en_proceso'] as const;
const DONE = ['finalizada'] as const;

on(['new'], 'create', 'staff', {
  ...nothing,
  to: 'bolsa_trabajo',
  patch: () => ({}),
  events: () => [{ type: 'created', to: 'bolsa_trabajo' }],
  logs: (row) => [line(TASK_LOG.created, TASK_LOG.created.details(row))],
  round: 'automatic',
});

// An edit of the card's fields; the log names the task as it reads after the edit.
const editing = (round: Round): Transition => ({
  ...nothing,
  to: 'same',
  patch: (_row, f) => f.edit ?? {},
  events: (row) => [{ type: 'updated', from: row.status, to: row.status }],
  logs: (row, f) => [line(TASK_LOG.updated, TASK_LOG.updated.details({ ...row, ...f.edit }, f.fields ?? []))],
  round,
});
on(POOL, 'update', 'staff', editing('type-edited'));
on([...ACTIVE, ...DONE], 'update', 'staff', editing(false));

// Staff give a pool task to a driver, or another driver an in-process one (who loses it is told, is idle).
on(POOL, 'assign', 'staff', {
  ...nothing,
  to: 'en_proceso',
  patch: assigning,
  events: assignEvents,
  logs: assignLogs(TASK_LOG.assigned),
  notices: ['assigned'],
  round: false,
});
on(ACTIVE, 'assign', 'staff', {
  ...nothing,
  to: 'en_proceso',
  patch: assigning,
  events: assignEvents,
  logs: assignLogs(TASK_LOG.assigned),
  notices: ['assigned', 'withdrawn'],
  idle: true,
  round: true,
});
// A finished task is reopened first (a staff drag to En Proceso): alone, `{assigned_to}` lost a race.
on(DONE, 'assign', 'staff', { refuse: ERR.taskFinished });
on(POOL, 'assign', 'engine', {
  ...nothing,
  to: 'en_proceso',
  patch: assigning,
  events: assignEvents,
  logs: assignLogs(TASK_LOG.autoAssigned),
  notices: ['assigned'],
  round: false,
});

// A driver claims a pool task (held tasks and types they lack: the command refuses them).
on(POOL, 'claim', 'driver', {
  ...nothing,
  to: 'en_proceso',
  patch: assigning,
  events: assignEvents,
  logs: assignLogs(TASK_LOG.selfAssigned),
  round: false,
  busy: ERR.alreadyActive,
});
on(ACTIVE, 'claim', 'driver', { refuse: ERR.alreadyAssigned });
on(DONE, 'claim', 'driver', { refuse: ERR.taskFinished });

// The one completion: the driver's own (congratulated) or staff's for them (told, not congratulated).
on(ACTIVE, 'complete', 'driver', {
  to: 'finalizada',
  patch: completing,
  events: completedEvent,
  logs: completedLog,
  notices: ['congratulations'],
  idle: false,
  credit: 1,
  round: true,
});
on([...POOL, ...DONE], 'complete', 'driver', { refuse: ERR.notYourTask });
on(ACTIVE, 'complete', 'staff', {
  to: 'finalizada',
  patch: completing,
  events: completedEvent,
  logs: completedLog,
  notices: ['closedByStaff'],
  idle: false,
  credit: 1,
  round: true,
});
on(POOL, 'complete', 'staff', {
  ...nothing,
  to: 'finalizada',
  patch: completing,
  events: completedEvent,
  logs: completedLog,
  round: false,
});

// A driver returns their task: its reason kept, the 30-minute rule starts, a damaged trailer holds it.
on(ACTIVE, 'return', 'driver', {
  to: 'bolsa_trabajo',
  patch: (row, f) => unassigning(row, f, true),
  events: (row, f) => [
    {
      type: 'returned',
      driverId: row.assignedTo,
      from: row.status,
      to: 'bolsa_trabajo',
      reason: f.reason,
      at: f.when,
    },
    ...(f.reason === HOLDING_RETURN
      ? [
          {
            type: 'held' as const,
            from: 'bolsa_trabajo' as const,
            to: 'bolsa_trabajo' as const,
            reason: f.reason,
          },
        ]
      : []),
  ],
  logs: (row, f) => [
    ...(f.reason === HOLDING_RETURN ? [line(TASK_LOG.held, TASK_LOG.held.details(row, f.reason))] : []),
    line(TASK_LOG.returned, TASK_LOG.returned.details(row, f.actor!.name, f.reason ?? null)),
  ],
  notices: ['returned'],
  idle: true,
  credit: 0,
  round: true,
});
on([...POOL, ...DONE], 'return', 'driver', { refuse: ERR.notYourTask });

// Staff move an in-process task back to the pool: no reason kept, no 30-minute rule; the driver is told.
on(ACTIVE, 'to-pool', 'staff', {
  to: 'bolsa_trabajo',
  patch: (row, f) => unassigning(row, f, false),
  events: (row) => [toPoolEvent(row)],
  logs: (row) => [
    line(TASK_LOG.statusChanged, TASK_LOG.statusChanged.details(row, row.status, 'bolsa_trabajo')),
  ],
  notices: ['withdrawn'],
  idle: true,
  credit: 0,
  round: true,
});

// A driver deleted or no longer a conductor: their task goes back to the pool (CONTRACT §4).
on(ACTIVE, 'release-driver', 'staff', {
  to: 'bolsa_trabajo',
  patch: (row, f) => unassigning(row, f, false),
  events: (row) => [toPoolEvent(row)],
  logs: (row, f) => [line(TASK_LOG.released, TASK_LOG.released.details(row, f.driverName ?? ''))],
  notices: [],
  idle: true,
  credit: 0,
  round: true,
});

// Out of finalizada back to the pool: the credit taken back from who had it.
on(DONE, 'reopen', 'staff', {
  ...nothing,
  to: 'bolsa_trabajo',
  patch: () => ({
    assignedTo: null,
    assignedAt: null,
    completedAt: null,
    lateS: null,
    proof: null,
    droppedAtLocationId: null,
    creditedTo: null,
    returnReason: null,
  }),
  events: (row) => [{ type: 'reopened', driverId: row.creditedTo, from: row.status, to: 'bolsa_trabajo' }],
  logs: (row) => [line(TASK_LOG.reopened, TASK_LOG.reopened.details(row, 'bolsa_trabajo'))],
  credit: -1,
  round: true,
});

// Hold (or a new reason for a held task) restarts its clock when it starts; only pool tasks (§15).
on(POOL, 'hold', 'staff', {
  ...nothing,
  to: 'same',
  patch: (row, f) => ({
    onHold: true,
    holdReason: f.reason ?? null,
    holdSource: f.holdSource ?? 'staff',
    ...(row.onHold ? {} : { statusSince: f.at }),
  }),
  events: (row, f) => [{ type: 'held', from: row.status, to: row.status, reason: f.reason ?? null }],
  logs: (row, f) => [line(TASK_LOG.held, TASK_LOG.held.details(row, f.reason ?? null))],
  round: false,
});
on([...ACTIVE, ...DONE], 'hold', 'staff', { refuse: ERR.holdOnlyPool });

// Released, a task enters matching like a new pool task: its wait starts now.
on(POOL, 'release', 'staff', {
  ...nothing,
  to: 'same',
  patch: (_row, f) => ({ onHold: false, holdReason: null, holdSource: null, statusSince: f.at }),
  events: (row) => [{ type: 'released', from: row.status, to: row.status, reason: row.holdReason }],
  logs: (row) => [line(TASK_LOG.unheld, TASK_LOG.unheld.details(row))],
  round: true,
});

on([...POOL, ...DONE], 'delete', 'staff', { ...deleting, notices: [], idle: false, round: false });
on(ACTIVE, 'delete', 'staff', { ...deleting, notices: ['withdrawn'], idle: true, round: true });

/** The table's entry, or undefined when the command has no meaning there (a programming error). */
export function lookUp(from: From, command: Command, role: Role): Transition | Refusal | undefined {
  return TABLE.get(key(from, command, role));
}

/** The move a command makes on a task, or its 409 (nothing written). */
export function decide(from: From, command: Command, role: Role): Transition {
  const entry = lookUp(from, command, role);
  if (!entry) throw new Error(`Sin transición: ${command} (${role}) desde ${from}`);
  if ('refuse' in entry) throw conflict(entry.refuse);
  return entry;
}

/** Whether the move asks for the engine's round. */
export function roundFollows(t: Transition, row: Subject, f: Facts): boolean {
  if (t.round === 'automatic') return isAutoAssigned(row.vehicleType);
  if (t.round === 'type-edited') return f.edit?.vehicleType !== undefined;
  return t.round;
}
