// The shift handover (`Relevo de turno`, CONTRACT §20, §24; docs/HANDOVER.md says what each figure is): one
// shift's figures and lists, read at the server's clock, and the notes to the next shift.
import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type {
  HandoverLate,
  HandoverMissingPunch,
  HandoverNote,
  HandoverNoteData,
  HandoverQuery,
  HandoverReport,
  HandoverReturn,
  Task,
} from '@shared/schemas';
import { HANDOVER_ERR, HANDOVER_LOG } from '@shared/labels';
import { previousShift, SHIFT_NAMES, shiftAt, shiftRange, type ShiftRef } from '@shared/shifts';
import { byUrgency } from '@shared/urgency';
import { formatDate } from '@shared/time';
import { TIMECLOCK_WINDOW_MS } from '@shared/constants';
import { db, insertRows, query, tx } from '../db';
import { handoverNotes } from '../db/tables';
import { nowMs } from '../clock';
import { record } from '../changes/commit';
import { config } from '../config';
import { conflict, forbidden, notFound } from '../http/errors';
import { queryTasks } from '../presenters/tasks';
import { logActivity, type Actor } from './activity';
import { listVisits } from './gate';
import { liveDrivers, summarizeWindow } from './timeclock-summary';

type HandoverNoteRow = typeof handoverNotes.$inferSelect;

/** A note may be deleted by its author for this long after it was written (CONTRACT §20). */
export const NOTE_DELETE_MS = 60 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** The shift asked for: both given, or the current one's (a shift without a date: the current date's). */
export function resolveShift(q: HandoverQuery, now: number = nowMs()): ShiftRef {
  const current = shiftAt(now, config.shiftStarts);
  return { shift: q.shift ?? current.shift, date: q.date ?? current.date };
}

const presentNote = (r: HandoverNoteRow): HandoverNote => ({
  id: r.id,
  text: r.text,
  author_id: r.authorId,
  author_name: r.authorName,
  created_at: r.createdAt.toISOString(),
  shift: r.shift,
  date: r.date,
});

const notesOf = async (ref: ShiftRef): Promise<HandoverNote[]> =>
  (
    await db
      .select()
      .from(handoverNotes)
      .where(and(eq(handoverNotes.date, ref.date), eq(handoverNotes.shift, ref.shift)))
      .orderBy(asc(handoverNotes.createdAt), asc(handoverNotes.id))
  ).map(presentNote);

const OPEN = `t.status IN ('bolsa_trabajo', 'en_proceso') AND t.deleted_at IS NULL`;
const DONE_IN = `t.status = 'finalizada' AND t.deleted_at IS NULL AND t.completed_at >= ? AND t.completed_at < ?`;

async function movesDone(from: number, to: number): Promise<number> {
  const [row] = await query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM tasks t WHERE ${DONE_IN}`, [
    from,
    to,
  ]);
  return Number(row?.n ?? 0);
}

/** Completed late in the window (late_s > 0), then open and overdue at min(now, end of the shift). */
async function lateTasks(from: number, to: number, open: Task[], now: number): Promise<HandoverLate[]> {
  const done = await queryTasks(`WHERE ${DONE_IN} AND t.late_s > 0 ORDER BY t.completed_at, t.id`, [
    from,
    to,
  ]);
  const until = Math.min(now, to);
  const overdue = open
    .filter((t) => t.due_at !== null && Date.parse(t.due_at) <= until)
    .sort((a, b) => Date.parse(a.due_at!) - Date.parse(b.due_at!));
  return [
    ...overdue.map((task) => ({
      task,
      open: true,
      late_s: Math.floor((now - Date.parse(task.due_at!)) / 1000),
    })),
    ...done.map((task) => ({ task, open: false, late_s: task.late_s ?? 0 })),
  ];
}

interface ReturnRaw {
  task_id: string;
  trailer_id: string;
  driver_name: string | null;
  reason: string | null;
  at: number | string;
}

/** Drivers' returns in the window (task_events `returned`), oldest first. */
async function returns(from: number, to: number): Promise<HandoverReturn[]> {
  const rows = await query<ReturnRaw>(
    `SELECT e.task_id, t.trailer_id, u.name AS driver_name, e.reason, e.at FROM task_events e
     JOIN tasks t ON t.id = e.task_id LEFT JOIN users u ON u.id = e.driver_id
     WHERE e.type = 'returned' AND e.at >= ? AND e.at < ? ORDER BY e.at, e.id`,
    [from, to],
  );
  return rows.map((r) => ({
    task_id: r.task_id,
    trailer_id: r.trailer_id,
    driver_name: r.driver_name,
    reason: r.reason,
    at: iso(Number(r.at)),
  }));
}

/**
 * Conductors whose punches miss one (CONTRACT §7's `incomplete`: a salida without its entrada, or an entrada
 * older than 16 h without salida), read as Control Conductores reads them: over the last 24 h up to the
 * shift's end (or now), so an entrada forgotten the day before is handed over even in a shift's first hour.
 */
async function missingPunches(from: number, to: number, now: number): Promise<HandoverMissingPunch[]> {
  const end = Math.min(to, now + 1);
  if (end <= from) return [];
  const start = Math.min(from, end - TIMECLOCK_WINDOW_MS);
  const rows = await summarizeWindow({ start, end }, await liveDrivers(), false);
  return rows
    .filter((r) => r.shift.status === 'incomplete')
    .map(({ driver, shift }) => {
      const entrada = shift.punches.findLast((p) => p.clockType === 'entrada');
      return { user_id: driver.id, user_name: driver.name, last_entrada: entrada ? iso(entrada.at) : null };
    });
}

/** GET /handover. */
export async function handoverReport(q: HandoverQuery): Promise<HandoverReport> {
  const now = nowMs();
  const ref = resolveShift(q, now);
  const { from, to } = shiftRange(ref, config.shiftStarts);
  const open = (await queryTasks(`WHERE ${OPEN}`, [])).sort(byUrgency(now));
  const [moves_done, late, returned, trucks_in_yard, missing_punches, notes, shift_notes] = await Promise.all(
    [
      movesDone(from, to),
      lateTasks(from, to, open, now),
      returns(from, to),
      listVisits({ open: true }),
      missingPunches(from, to, now),
      notesOf(previousShift(ref)),
      notesOf(ref),
    ],
  );
  return {
    ...ref,
    from: iso(from),
    to: iso(to),
    moves_done,
    late,
    returned,
    holds: open.filter((t) => t.on_hold),
    open_tasks: open,
    trucks_in_yard,
    missing_punches,
    notes,
    shift_notes,
  };
}

const logDetails = (n: { shift: HandoverNote['shift']; date: string; text: string }) =>
  HANDOVER_LOG.details(SHIFT_NAMES[n.shift], formatDate(Date.parse(`${n.date}T12:00:00Z`)), n.text);

/** POST /handover/notes: the note belongs to the shift it is written in. */
export async function addNote(input: HandoverNoteData, actor: Actor): Promise<HandoverNote> {
  return tx(async () => {
    const at = nowMs();
    const ref = shiftAt(at, config.shiftStarts);
    const row: HandoverNoteRow = {
      id: crypto.randomUUID(),
      text: input.text,
      authorId: actor.id,
      authorName: actor.name,
      shift: ref.shift,
      date: ref.date,
      createdAt: new Date(at),
    };
    await insertRows(handoverNotes, [row]);
    await logActivity('system', actor, HANDOVER_LOG.noteAdded, logDetails(row));
    record((changes) => changes.person({ kind: 'handover-notes', shift: row.shift, date: row.date }));
    return presentNote(row);
  });
}

/** DELETE /handover/notes/{id}: only its author, within the hour after writing it. */
export async function deleteNote(id: string, actor: Actor): Promise<void> {
  await tx(async () => {
    const [row] = await db.select().from(handoverNotes).where(eq(handoverNotes.id, id));
    if (!row) throw notFound(HANDOVER_ERR.noteNotFound);
    if (row.authorId !== actor.id) throw forbidden(HANDOVER_ERR.noteNotYours);
    if (nowMs() - row.createdAt.getTime() > NOTE_DELETE_MS) throw conflict(HANDOVER_ERR.noteTooOld);
    await db.delete(handoverNotes).where(eq(handoverNotes.id, id));
    await logActivity('system', actor, HANDOVER_LOG.noteDeleted, logDetails(row));
    record((changes) => changes.person({ kind: 'handover-notes', shift: row.shift, date: row.date }));
  });
}
