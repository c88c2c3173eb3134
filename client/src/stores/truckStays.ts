// Informes → Tiempos de espera (CONTRACT §19 "Waiting times", §24: admin and manager): the carriers' waits
// of the trucks that left between two Madrid days (GET /admin/reports/truck-stays) and its Excel.
import { create } from 'zustand';
import type { TruckStaysReport } from '@shared/schemas';
import { TRUCK_STAYS_EXCEL } from '@shared/labels';
import { addDays } from '@shared/periods';
import { madridDay } from '@shared/time';
import { api } from '../api';
import { onSessionEnd } from './session-end';
import { serverNow } from './timeclock';

/** Days the default range covers, today included. */
export const TRUCK_STAYS_DEFAULT_DAYS = 7;

/** The last 7 Madrid days through today (by the server's clock). */
export function defaultRange(now = serverNow()): { from: string; to: string } {
  const to = madridDay(now);
  return { from: addDays(to, 1 - TRUCK_STAYS_DEFAULT_DAYS), to };
}

interface TruckStaysState {
  from: string;
  to: string;
  report: TruckStaysReport | null;
  loading: boolean;
  failed: boolean;
}

const initial = (): TruckStaysState => ({ ...defaultRange(), report: null, loading: false, failed: false });

export const useTruckStays = create<TruckStaysState>(() => initial());

let latest = 0;

/** GET /admin/reports/truck-stays for the current range; only the latest answer is kept. Rejects on failure. */
export async function loadTruckStays(): Promise<void> {
  const { from, to } = useTruckStays.getState();
  const ticket = ++latest;
  useTruckStays.setState({ loading: true });
  try {
    const report = await api.get<TruckStaysReport>('/admin/reports/truck-stays', { from, to });
    if (ticket === latest) useTruckStays.setState({ report, failed: false });
  } catch (err) {
    if (ticket === latest) useTruckStays.setState({ failed: true });
    throw err;
  } finally {
    if (ticket === latest) useTruckStays.setState({ loading: false });
  }
}

/** A new range (an empty day keeps the last one: the server needs both). */
export function setTruckStaysRange(patch: Partial<Pick<TruckStaysState, 'from' | 'to'>>): void {
  const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v));
  useTruckStays.setState(clean);
}

/** GET …/truck-stays/export-excel of the current range: the browser downloads the workbook. */
export function exportTruckStays(): Promise<string> {
  const { from, to } = useTruckStays.getState();
  return api.download('/admin/reports/truck-stays/export-excel', TRUCK_STAYS_EXCEL.fileName(from, to), {
    from,
    to,
  });
}

onSessionEnd(() => {
  latest++;
  useTruckStays.setState(initial());
});
