// Spanish texts of the control room (CONTRACT §15): the wall screen at /pantalla and the Attention list
// that the wall and the dashboard share. Durations come in already written by formatDuration. Texts a
// board card also shows (Finalizadas (24 h), Sin conexión desde hace…) are UI_BOARD's.

import { OVERFULL_LABEL } from './yard';
/** CONTRACT §20: the `task_escalated` notification and its Web Push. */
export const ESCALATION_NOTICE = {
  title: (trailerId: string) => `Tarea ${trailerId}: requiere atención`,
  push: (n: number) => `${n} ${n === 1 ? 'tarea requiere' : 'tareas requieren'} atención`,
} as const;

export const UI_ATTENTION = {
  title: 'Requiere atención',
  // Tasks and overfull places alike (CONTRACT §20): what needs a person.
  count: (n: number) => `${n} ${n === 1 ? 'asunto requiere' : 'asuntos requieren'} atención`,
  empty: 'Nada requiere atención',
  held: (reason: string | null) => (reason ? `Retenida: ${reason}` : 'Retenida'),
  driverOffline: (d: string) => `Conductor sin conexión desde hace ${d}`,
  inProgressLong: (d: string) => `En proceso desde hace ${d}`,
  poolWaiting: (d: string) => `Esperando conductor desde hace ${d}`,
  /** CONTRACT §19: two open tasks whose plates are one trailer (a migration re-keyed them). */
  duplicateTrailer: 'Remolque duplicado',
  /** CONTRACT §20's escalation rules (the texts of their notifications too: shared/escalation.ts). */
  waiting: (d: string) => `Lleva ${d} en la bolsa`,
  dueSoon: (time: string) => `Vence a las ${time}`,
  late: (d: string) => `Retrasada ${d}`,
  /** CONTRACT §20: a place holding more trailers than its capacity. */
  overfull: (occupancy: number, capacity: number) => `${OVERFULL_LABEL}: ${occupancy} de ${capacity}`,
  driver: 'Conductor',
} as const;

export const UI_WALL = {
  label: 'Pantalla de la sala de control',
  exit: 'Salir (Esc)',
  figures: 'Resumen del patio',
  available: 'Disponibles',
  busy: 'Ocupados',
  /** `1/3`: the page shown and how many the column has. */
  page: (page: number, pages: number) => `${page}/${pages}`,
  pageLabel: (page: number, pages: number) => `Página ${page} de ${pages}`,
  more: (n: number) => `+${n} más`,
  moreLabel: (n: number) => `${n} ${n === 1 ? 'tarjeta más' : 'tarjetas más'} en otras páginas`,
  returned: (reason: string) => `Devuelta: ${reason}`,
  unassigned: 'Sin conductor',
} as const;
