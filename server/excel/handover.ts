// relevo_{date}_{shift}.xlsx (CONTRACT §20): GET /handover's answer, a sheet per list (minutes in the cells).
import type ExcelJS from 'exceljs';
import type {
  GateVisit,
  HandoverLate,
  HandoverMissingPunch,
  HandoverNote,
  HandoverReport,
  HandoverReturn,
  Task,
} from '@shared/schemas';
import { HANDOVER_EXCEL as X, HANDOVER_UI, STATUS_LABELS } from '@shared/labels';
import { SHIFT_NAMES } from '@shared/shifts';
import { formatDateTime } from '@shared/time';
import { addTableSheet, newWorkbook, type SheetColumn } from './workbook';

const C = HANDOVER_UI.columns;
const minutes = (s: number) => s / 60;

const taskColumns: SheetColumn<Task>[] = [
  { header: C.trailer, kind: 'text', value: (t) => t.trailer_id },
  { header: C.movement, kind: 'text', value: (t) => t.title },
  { header: C.route, kind: 'text', value: (t) => `${t.origin} → ${t.destination}` },
  {
    header: C.status,
    kind: 'text',
    value: (t) => (t.on_hold ? HANDOVER_UI.onHold : STATUS_LABELS[t.status]),
  },
  { header: C.deadline, kind: 'datetime', value: (t) => t.due_at },
  { header: C.assignee, kind: 'text', value: (t) => t.assigned_to_name },
];

export function handoverWorkbook(r: HandoverReport): ExcelJS.Workbook {
  const wb = newWorkbook();
  const F = HANDOVER_UI.figures;
  addTableSheet<[string, string | number]>(
    wb,
    X.summarySheet,
    [
      { header: X.figure, kind: 'text', value: (row) => row[0] },
      { header: X.value, kind: 'text', value: (row) => row[1] },
    ],
    [
      [X.shiftRow, `${SHIFT_NAMES[r.shift]} ${r.date}`],
      [X.fromRow, formatDateTime(r.from)],
      [X.toRow, formatDateTime(r.to)],
      [F.moves_done, r.moves_done],
      [F.late, r.late.length],
      [F.returned, r.returned.length],
      [F.holds, r.holds.length],
      [F.open_tasks, r.open_tasks.length],
      [F.trucks_in_yard, r.trucks_in_yard.length],
      [F.missing_punches, r.missing_punches.length],
    ],
  );
  addTableSheet<Task>(wb, X.openSheet, taskColumns, r.open_tasks);
  addTableSheet<HandoverLate>(
    wb,
    X.lateSheet,
    [
      ...taskColumns.map((c) => ({ ...c, value: (l: HandoverLate) => c.value(l.task) })),
      { header: C.lateness, kind: 'minutes', value: (l) => minutes(l.late_s) },
      {
        header: C.status,
        kind: 'text',
        value: (l) => (l.open ? HANDOVER_UI.lateOpen : HANDOVER_UI.lateDone),
      },
    ],
    r.late,
  );
  addTableSheet<HandoverReturn>(
    wb,
    X.returnedSheet,
    [
      { header: C.trailer, kind: 'text', value: (x) => x.trailer_id },
      { header: C.driver, kind: 'text', value: (x) => x.driver_name },
      { header: C.reason, kind: 'text', value: (x) => x.reason },
      { header: C.at, kind: 'datetime', value: (x) => x.at },
    ],
    r.returned,
  );
  addTableSheet<Task>(
    wb,
    X.holdsSheet,
    [...taskColumns, { header: C.reason, kind: 'text', value: (t) => t.hold_reason }],
    r.holds,
  );
  addTableSheet<GateVisit>(
    wb,
    X.trucksSheet,
    [
      { header: C.truck, kind: 'text', value: (v) => v.truck_plate },
      { header: C.carrier, kind: 'text', value: (v) => v.carrier },
      { header: C.entered, kind: 'datetime', value: (v) => v.entered_at },
      { header: C.stay, kind: 'minutes', value: (v) => minutes(v.stay_s) },
    ],
    r.trucks_in_yard,
  );
  addTableSheet<HandoverMissingPunch>(
    wb,
    X.punchesSheet,
    [
      { header: C.driver, kind: 'text', value: (p) => p.user_name },
      { header: C.lastEntrada, kind: 'datetime', value: (p) => p.last_entrada },
    ],
    r.missing_punches,
  );
  addTableSheet<HandoverNote>(
    wb,
    X.notesSheet,
    [
      { header: X.noteShift, kind: 'text', value: (n) => `${SHIFT_NAMES[n.shift]} ${n.date}` },
      { header: C.author, kind: 'text', value: (n) => n.author_name },
      { header: C.at, kind: 'datetime', value: (n) => n.created_at },
      { header: C.note, kind: 'text', value: (n) => n.text },
    ],
    [...r.notes, ...r.shift_notes],
  );
  return wb;
}
