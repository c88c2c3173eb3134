// The trailer's marks as columns of an export (CONTRACT §19): kind, load state, ADR, reefer setpoint, damage.
import {
  LOAD_STATE_LABELS,
  TRAILER_EXCEL_HEADERS as H,
  TRAILER_EXCEL_YES,
  TRAILER_KIND_LABELS,
} from '@shared/labels';
import type { TaskTrailerMarks } from '@shared/schemas';
import type { SheetColumn } from './workbook';

export function trailerMarkColumns<T>(marks: (row: T) => TaskTrailerMarks): SheetColumn<T>[] {
  return [
    { header: H.trailerKind, kind: 'text', value: (r) => TRAILER_KIND_LABELS[marks(r).kind] },
    { header: H.loadState, kind: 'text', value: (r) => LOAD_STATE_LABELS[marks(r).load_state] },
    { header: H.adr, kind: 'text', value: (r) => (marks(r).adr ? TRAILER_EXCEL_YES : null) },
    { header: H.reeferSetpoint, kind: 'decimal', value: (r) => marks(r).reefer_setpoint_c },
    { header: H.damaged, kind: 'text', value: (r) => (marks(r).damaged ? TRAILER_EXCEL_YES : null) },
  ];
}
