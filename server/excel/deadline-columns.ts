// A task's deadline and lateness as columns of an export (CONTRACT §20: reports and exports show them):
// `Hora límite` (Madrid time, as every date of a workbook) and `Retraso` as the cards say it
// (`Retrasada 12 min`, `A tiempo`; empty without a deadline, or while the task is open).
import { latenessLabel } from '@shared/deadline';
import { DEADLINE_COLUMNS as H } from '@shared/labels';
import type { Task } from '@shared/schemas';
import type { SheetColumn } from './workbook';

type Deadline = Pick<Task, 'due_at' | 'late_s'>;

export function deadlineColumns<T>(task: (row: T) => Deadline): SheetColumn<T>[] {
  return [
    { header: H.dueAt, kind: 'datetime', value: (r) => task(r).due_at },
    { header: H.late, kind: 'text', value: (r) => latenessLabel(task(r).late_s)?.text ?? null },
  ];
}
