// Spanish texts of the shift handover (`Relevo de turno`, CONTRACT §20, §24): refusals, the log, the page and
// its Excel. The shifts' own names are shared/shifts.ts's SHIFT_NAMES.
import { DESCRIPTION_MAX } from '../constants';

export const HANDOVER_ERR = {
  shiftInvalid: 'Turno no válido',
  noteRequired: 'La nota es obligatoria',
  noteTooLong: `La nota admite como máximo ${DESCRIPTION_MAX} caracteres`,
  noteNotFound: 'Nota no encontrada',
  noteNotYours: 'Solo su autor puede borrar esta nota',
  noteTooOld: 'Una nota solo puede borrarse durante la hora siguiente a escribirla',
  startupShiftStarts: (value: string) =>
    `SHIFT_STARTS no válido («${value}»): tres horas HH:mm crecientes separadas por comas, p. ej. 06:00,14:00,22:00`,
} as const;

/** Activity-log lines of the notes (CONTRACT §10). */
export const HANDOVER_LOG = {
  noteAdded: 'Nota de relevo añadida',
  noteDeleted: 'Nota de relevo borrada',
  details: (shift: string, date: string, text: string) =>
    `Turno de ${shift} del ${date}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`,
} as const;

/** The page (client/src/views/Handover). */
export const HANDOVER_UI = {
  title: 'Relevo de turno',
  nav: 'Relevo',
  shift: 'Turno',
  date: 'Fecha',
  window: (from: string, to: string) => `De ${from} a ${to}`,
  shiftOf: (shift: string, date: string) => `Turno de ${shift} · ${date}`,
  print: 'Imprimir',
  exportExcel: 'Exportar Excel',
  refresh: 'Actualizar',
  loading: 'Cargando…',
  figures: {
    moves_done: 'Movimientos hechos',
    late: 'Retrasadas',
    returned: 'Devoluciones',
    holds: 'Retenidas',
    open_tasks: 'Tareas abiertas',
    trucks_in_yard: 'Camiones en el patio',
    missing_punches: 'Fichajes pendientes',
  },
  sections: {
    open_tasks: 'Tareas abiertas',
    late: 'Retrasadas',
    returned: 'Devoluciones del turno',
    holds: 'Retenidas',
    trucks_in_yard: 'Camiones en el patio',
    missing_punches: 'Fichajes pendientes',
  },
  previousNotes: 'Notas del turno anterior',
  currentNotes: 'Notas de este turno',
  noNotes: 'Sin notas',
  none: 'Nada que señalar',
  addNote: 'Añadir nota',
  notePlaceholder: 'Lo que el siguiente turno debe saber…',
  deleteNote: 'Borrar nota',
  noteAdded: 'Nota añadida',
  columns: {
    trailer: 'Remolque',
    movement: 'Movimiento',
    route: 'Origen → destino',
    status: 'Estado',
    deadline: 'Hora límite',
    lateness: 'Retraso',
    assignee: 'Conductor',
    reason: 'Motivo',
    at: 'Hora',
    truck: 'Camión',
    carrier: 'Transportista',
    entered: 'Entrada',
    stay: 'Estancia',
    driver: 'Conductor',
    punchStatus: 'Situación',
    lastEntrada: 'Entrada',
    author: 'Autor',
    note: 'Nota',
  },
  lateOpen: 'Abierta',
  lateDone: 'Completada tarde',
  onHold: 'Retenida',
  missingPunch: 'Entrada sin salida o salida sin entrada',
} as const;

/** relevo_{date}_{shift}.xlsx (CONTRACT §20). */
export const HANDOVER_EXCEL = {
  fileName: (date: string, shift: string) => `relevo_${date}_${shift}.xlsx`,
  summarySheet: 'Resumen',
  figure: 'Dato',
  value: 'Valor',
  shiftRow: 'Turno',
  fromRow: 'Desde',
  toRow: 'Hasta',
  openSheet: 'Tareas abiertas',
  lateSheet: 'Retrasadas',
  returnedSheet: 'Devoluciones',
  holdsSheet: 'Retenidas',
  trucksSheet: 'Camiones en el patio',
  punchesSheet: 'Fichajes pendientes',
  notesSheet: 'Notas',
  noteShift: 'Turno de la nota',
} as const;
