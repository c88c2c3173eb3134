// Task rows → the API's Task shape (SPEC §3 + CONTRACT §5), with the assignee's and creator's names.
import { aliasedTable, eq, type SQL } from 'drizzle-orm';
import { DEFAULT_TRAILER_MARKS, type Task, type TaskTrailerMarks } from '@shared/schemas';
import type { LoadState, TrailerKind } from '@shared/enums';
import { db, query, rowReader, type Db } from '../db';
import { apiClients, locations, tasks, trailers, users, type TaskRow } from '../db/tables';
import { apiClientActor } from '@shared/labels';

const assignee = aliasedTable(users, 'assignee');
const creator = aliasedTable(users, 'creator');

/** Who made a task: its user, or the API client it came through (CONTRACT §21: `API · {name}`). */
const creatorName = (userName: string | null, clientName: string | null): string | null =>
  userName ?? (clientName === null ? null : apiClientActor(clientName));
/** CONTRACT §20: the place a trailer was really left at, when not the task's destination. */
const dropped = aliasedTable(locations, 'dropped');

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The assignee's presence as the task is read (CONTRACT §15): derived, never part of its version. */
export interface AssigneePresence {
  online: boolean | null;
  offlineSince: Date | null;
}
const NO_ASSIGNEE: AssigneePresence = { online: null, offlineSince: null };

/** A trailer's marks as read with its task (CONTRACT §19); a task whose record is missing shows the defaults. */
export interface TrailerMarksRow {
  kind: TrailerKind | null;
  loadState: LoadState | null;
  adr: boolean | null;
  reeferSetpointC: number | null;
  damaged: boolean | null;
}
const NO_MARKS: TrailerMarksRow = {
  kind: null,
  loadState: null,
  adr: null,
  reeferSetpointC: null,
  damaged: null,
};

export const presentMarks = (m: TrailerMarksRow): TaskTrailerMarks => ({
  kind: m.kind ?? DEFAULT_TRAILER_MARKS.kind,
  load_state: m.loadState ?? DEFAULT_TRAILER_MARKS.load_state,
  adr: m.adr ?? DEFAULT_TRAILER_MARKS.adr,
  reefer_setpoint_c: m.reeferSetpointC ?? null,
  damaged: m.damaged ?? DEFAULT_TRAILER_MARKS.damaged,
});

export function presentTask(
  row: TaskRow,
  assignedToName: string | null,
  createdByName: string | null,
  presence: AssigneePresence = NO_ASSIGNEE,
  marks: TrailerMarksRow = NO_MARKS,
  droppedAtName: string | null = null,
): Task {
  const assigned = !!row.assignedTo;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    origin: row.origin,
    destination: row.destination,
    origin_location_id: row.originLocationId,
    destination_location_id: row.destinationLocationId,
    trailer_id: row.trailerId,
    load_state_after: row.loadStateAfter,
    due_at: iso(row.dueAt),
    late_s: row.lateS,
    proof: row.proof ?? null,
    dropped_at_location_id: row.droppedAtLocationId ?? null,
    dropped_at_location_name: row.droppedAtLocationId ? droppedAtName : null,
    priority: row.priority,
    status: row.status,
    vehicle_type: row.vehicleType,
    assigned_to: row.assignedTo,
    assigned_to_name: row.assignedTo ? assignedToName : null,
    created_by: row.createdBy,
    created_by_name: createdByName,
    created_by_client_id: row.createdByClientId ?? null,
    external_ref: row.externalRef ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    assigned_at: iso(row.assignedAt),
    completed_at: iso(row.completedAt),
    status_since: row.statusSince.toISOString(),
    return_reason: row.returnReason,
    on_hold: row.onHold,
    hold_reason: row.holdReason,
    hold_source: row.onHold ? (row.holdSource ?? 'staff') : null,
    last_return_reason: row.lastReturnReason,
    assignee_online: assigned ? presence.online : null,
    assignee_offline_since: assigned && presence.online === false ? iso(presence.offlineSince) : null,
    trailer: presentMarks(marks),
    version: row.version,
  };
}

/** The trailer's marks as drizzle selects them (a left join gives null when the record is missing). */
export const TRAILER_MARKS_COLUMNS = {
  kind: trailers.kind,
  loadState: trailers.loadState,
  adr: trailers.adr,
  reeferSetpointC: trailers.reeferSetpointC,
  damaged: trailers.damaged,
};

/** The query every task listing starts from: tasks joined to the names they show. */
export function selectTasks(handle: Db = db) {
  return handle
    .select({
      task: tasks,
      assignedToName: assignee.name,
      assigneeOnline: assignee.isOnline,
      assigneeLastActivity: assignee.lastActivityAt,
      createdByName: creator.name,
      clientName: apiClients.name,
      marks: TRAILER_MARKS_COLUMNS,
      droppedAtName: dropped.name,
    })
    .from(tasks)
    .leftJoin(assignee, eq(tasks.assignedTo, assignee.id))
    .leftJoin(creator, eq(tasks.createdBy, creator.id))
    .leftJoin(apiClients, eq(tasks.createdByClientId, apiClients.id))
    .leftJoin(trailers, eq(trailers.trailerKey, tasks.trailerKey))
    .leftJoin(dropped, eq(dropped.id, tasks.droppedAtLocationId));
}

type Joined = {
  task: TaskRow;
  assignedToName: string | null;
  assigneeOnline: boolean | null;
  assigneeLastActivity: Date | null;
  createdByName: string | null;
  clientName: string | null;
  marks: TrailerMarksRow | null;
  droppedAtName: string | null;
};
/** A joined row: users.last_activity_at is when an offline user went offline (services/presence.ts). */
export const presentJoined = (r: Joined): Task =>
  presentTask(
    r.task,
    r.assignedToName,
    creatorName(r.createdByName, r.clientName),
    {
      online: r.assigneeOnline,
      offlineSince: r.assigneeOnline === false ? r.assigneeLastActivity : null,
    },
    r.marks ?? NO_MARKS,
    r.droppedAtName,
  );

/** One task (deleted ones included, so callers can tell 'gone' from 'never existed'). */
export async function loadTask(where: SQL): Promise<Task | undefined> {
  const [row] = await selectTasks().where(where).limit(1);
  return row ? presentJoined(row) : undefined;
}

/** A trailer's marks as raw SQL reads them: `r.kind AS trailer_kind, …` (TRAILER_MARKS_SQL). */
export interface TrailerMarksRaw {
  trailer_kind: TrailerKind | null;
  trailer_load_state: LoadState | null;
  trailer_adr: unknown;
  trailer_reefer_setpoint_c: unknown;
  trailer_damaged: unknown;
}
/** The columns TrailerMarksRaw reads, over the trailers table aliased `r`. */
export const TRAILER_MARKS_SQL = `r.kind AS trailer_kind, r.load_state AS trailer_load_state,
    r.adr AS trailer_adr, r.reefer_setpoint_c AS trailer_reefer_setpoint_c, r.damaged AS trailer_damaged`;

// Every change reads back the tasks it wrote (the push and the answer), and the searcher reads its pages:
// raw SQL, as drizzle's building and mapping of this join would cost more than the read itself.
const joinedSql = (extra: string) => `
  SELECT t.*, ${extra}a.name AS assignee_name, a.is_online AS assignee_online,
    a.last_activity_at AS assignee_last_activity, c.name AS creator_name, k.name AS client_name, ${TRAILER_MARKS_SQL},
    dl.name AS dropped_at_name
  FROM tasks t LEFT JOIN users a ON a.id = t.assigned_to LEFT JOIN users c ON c.id = t.created_by
  LEFT JOIN api_clients k ON k.id = t.created_by_client_id
  LEFT JOIN trailers r ON r.trailer_key = t.trailer_key LEFT JOIN locations dl ON dl.id = t.dropped_at_location_id`;
const JOINED_SQL = joinedSql('');
const taskRow = rowReader(tasks);

interface JoinedRaw extends Record<string, unknown>, TrailerMarksRaw {
  assignee_name: string | null;
  assignee_online: unknown;
  assignee_last_activity: unknown;
  creator_name: string | null;
  client_name: string | null;
  dropped_at_name: string | null;
}
const fromDriver = (column: { mapFromDriverValue(v: unknown): unknown }, value: unknown): unknown =>
  value === null || value === undefined ? null : column.mapFromDriverValue(value);

/** Raw marks (SQLite's 0/1, PostgreSQL's booleans and reals) → the marks a task shows. */
export const marksOfRaw = (raw: TrailerMarksRaw): TrailerMarksRow => ({
  kind: raw.trailer_kind,
  loadState: raw.trailer_load_state,
  adr: fromDriver(trailers.adr, raw.trailer_adr) as boolean | null,
  reeferSetpointC: fromDriver(trailers.reeferSetpointC, raw.trailer_reefer_setpoint_c) as number | null,
  damaged: fromDriver(trailers.damaged, raw.trailer_damaged) as boolean | null,
});

function presentRaw(raw: JoinedRaw): Task {
  const online = fromDriver(users.isOnline, raw.assignee_online) as boolean | null;
  return presentTask(
    taskRow(raw),
    raw.assignee_name,
    creatorName(raw.creator_name, raw.client_name),
    {
      online,
      offlineSince:
        online === false
          ? (fromDriver(users.lastActivityAt, raw.assignee_last_activity) as Date | null)
          : null,
    },
    marksOfRaw(raw),
    raw.dropped_at_name,
  );
}

/**
 * Tasks joined to their names, in the order the SQL gives: `clause` is what follows FROM (WHERE, ORDER
 * BY…) over the task table aliased `t`, with `?` placeholders.
 */
export async function queryTasks(clause: string, params: readonly unknown[]): Promise<Task[]> {
  return (await query<JoinedRaw>(`${JOINED_SQL} ${clause}`, params)).map(presentRaw);
}

/**
 * Tasks by id (deleted ones included, so callers can tell 'gone' from 'never existed'), in one query: the
 * pushes of a transaction (changes/processors/sockets.ts) read every task it changed at once. Ids not found are
 * missing from the map.
 */
export async function loadTasksByIds(ids: readonly string[]): Promise<Map<string, Task>> {
  return (await loadTasksByIdsWith(ids)).tasks;
}

/**
 * loadTasksByIds with one more column read by the same statement, `column` (an SQL expression without
 * placeholders): a read the transaction needs anyway costs no round trip of its own. `extra` is its value
 * (undefined without a column or when no row was read).
 */
export async function loadTasksByIdsWith(
  ids: readonly string[],
  column?: string,
): Promise<{ tasks: Map<string, Task>; extra: unknown }> {
  if (!ids.length) return { tasks: new Map(), extra: undefined };
  const rows = await query<JoinedRaw & { extra?: unknown }>(
    `${column ? joinedSql(`${column} AS extra, `) : JOINED_SQL} WHERE t.id IN (${Array<string>(ids.length).fill('?').join(', ')})`,
    ids,
  );
  return { tasks: new Map(rows.map((raw) => [raw.id as string, presentRaw(raw)])), extra: rows[0]?.extra };
}

/** One task by id (deleted ones included). */
export async function loadTaskById(id: string): Promise<Task | undefined> {
  return (await loadTasksByIds([id])).get(id);
}
