// The Relevo de turno (CONTRACT §20, §24: staff): one shift's figures, lists and notes (GET /handover), its
// notes (POST/DELETE /handover/notes) and its Excel. Without a chosen shift the server answers the current
// one and the pickers take its shift and date.
import { create } from 'zustand';
import type { Shift } from '@shared/enums';
import type { HandoverNote, HandoverReport } from '@shared/schemas';
import { HANDOVER_EXCEL } from '@shared/labels';
import { api } from '../api';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';

interface HandoverState {
  /** The shift shown; null until the first answer says which one is current. */
  shift: Shift | null;
  date: string | null;
  report: HandoverReport | null;
  loading: boolean;
  failed: boolean;
}

const initial = (): HandoverState => ({
  shift: null,
  date: null,
  report: null,
  loading: false,
  failed: false,
});

export const useHandover = create<HandoverState>(() => initial());

const requests = latestRequests();

const chosen = (): Record<string, string> => {
  const { shift, date } = useHandover.getState();
  return shift && date ? { shift, date } : {};
};

/** GET /handover of the chosen shift (the current one until chosen); only the latest answer is kept. */
export async function loadHandover(): Promise<void> {
  const isLatest = requests.begin();
  useHandover.setState({ loading: true });
  try {
    const report = await api.get<HandoverReport>('/handover', chosen());
    if (isLatest()) useHandover.setState({ report, shift: report.shift, date: report.date, failed: false });
  } catch (err) {
    if (isLatest()) useHandover.setState({ failed: true });
    throw err;
  } finally {
    if (isLatest()) useHandover.setState({ loading: false });
  }
}

/** Another shift or date (an empty date keeps the last one). */
export function chooseHandover(patch: { shift?: Shift; date?: string }): void {
  const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v));
  useHandover.setState(clean);
}

/** Back to the shift running now (the server decides which it is). */
export function currentHandover(): void {
  useHandover.setState({ shift: null, date: null });
}

/** POST /handover/notes: the note belongs to the shift running now; the page reloads to show it. */
export async function addHandoverNote(text: string): Promise<HandoverNote> {
  const note = await api.post<HandoverNote>('/handover/notes', { text });
  await loadHandover();
  return note;
}

/** DELETE /handover/notes/{id} (its author, within the hour). */
export async function deleteHandoverNote(id: string): Promise<void> {
  await api.del(`/handover/notes/${id}`);
  await loadHandover();
}

/** GET /handover/export-excel of the shift shown: the browser downloads relevo_{date}_{shift}.xlsx. */
export function exportHandover(): Promise<string> {
  const { shift, date } = useHandover.getState();
  return api.download(
    '/handover/export-excel',
    shift && date ? HANDOVER_EXCEL.fileName(date, shift) : 'relevo.xlsx',
    chosen(),
  );
}

onSessionEnd(() => {
  requests.forget();
  useHandover.setState(initial());
});
