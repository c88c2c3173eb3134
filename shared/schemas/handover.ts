// The shift handover (`Relevo de turno`, CONTRACT §20, §24): the query, a note, and the answers.
import { z } from 'zod';
import { DESCRIPTION_MAX } from '../constants';
import type { Shift } from '../enums';
import { HANDOVER_ERR } from '../labels/handover';
import { parseShift } from '../shifts';
import { cleanMultiline } from '../text';
import { daySchema } from './common';
import type { GateVisit } from './visits';
import type { Task } from './tasks';

/**
 * GET /handover and its Excel: `shift` (`manana`, `mañana`, `tarde`, `noche`) and a Madrid `date`; both
 * default to the current shift. A wrong shift's detail is exactly `Turno no válido` (an object-level issue,
 * so no field name is put before it).
 */
export const handoverQuerySchema = z
  .object({ shift: z.unknown().optional(), date: daySchema.optional() })
  .transform((q, ctx) => {
    if (q.shift === undefined) return { shift: undefined, date: q.date };
    const shift = parseShift(q.shift);
    if (shift === null) {
      ctx.addIssue({ code: 'custom', message: HANDOVER_ERR.shiftInvalid, path: [] });
      return z.NEVER;
    }
    return { shift, date: q.date };
  });
export type HandoverQuery = z.output<typeof handoverQuerySchema>;

/** POST /handover/notes: a multi-line text (§14's rules), 1 to 1000 characters once cleaned. */
export const handoverNoteSchema = z.object({
  text: z
    .string({ error: HANDOVER_ERR.noteRequired })
    .overwrite(cleanMultiline)
    .min(1, HANDOVER_ERR.noteRequired)
    .max(DESCRIPTION_MAX, HANDOVER_ERR.noteTooLong),
});
export type HandoverNoteData = z.output<typeof handoverNoteSchema>;

/** A note to the next shift (CONTRACT §20): 201 of POST /handover/notes, and the page's lists. */
export interface HandoverNote {
  id: string;
  text: string;
  /** null once the author's account is gone. */
  author_id: string | null;
  author_name: string;
  created_at: string;
  /** The shift and Madrid date it was written in. */
  shift: Shift;
  date: string;
}

/** A task late in the shift: completed late in it, or open and past its deadline. */
export interface HandoverLate {
  task: Task;
  /** Seconds late: the completion's late_s, or, still open, from due_at to now. */
  late_s: number;
  open: boolean;
}

/** A driver's return in the shift (the task goes back to the pool). */
export interface HandoverReturn {
  task_id: string;
  trailer_id: string;
  driver_name: string | null;
  reason: string | null;
  at: string;
}

/** A conductor whose punches are missing one (CONTRACT §7's `incomplete`). */
export interface HandoverMissingPunch {
  user_id: string;
  user_name: string;
  /** The entrada left open (ISO), or null when a salida has no entrada. */
  last_entrada: string | null;
}

/** GET /handover (docs/HANDOVER.md says exactly what each figure is). */
export interface HandoverReport {
  shift: Shift;
  date: string;
  /** The shift's window [from, to), ISO UTC. */
  from: string;
  to: string;
  /** Tasks completed in the window. */
  moves_done: number;
  late: HandoverLate[];
  returned: HandoverReturn[];
  /** Tasks on hold now, with their reason. */
  holds: Task[];
  /** Pool and en_proceso tasks now, by urgency (CONTRACT §20). */
  open_tasks: Task[];
  /** Open gate visits, with their stay. */
  trucks_in_yard: GateVisit[];
  missing_punches: HandoverMissingPunch[];
  /** `Notas del turno anterior`: the notes written in the previous shift, oldest first. */
  notes: HandoverNote[];
  /** The notes written in this shift so far, oldest first. */
  shift_notes: HandoverNote[];
}
