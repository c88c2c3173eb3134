// Spanish texts of deadlines on screen (CONTRACT §20, issue 28): the form's `Hora límite` picker, the
// lateness of a finished task, the Excel columns, and the board's keyboard names.
export const UI_DEADLINE = {
  field: 'Hora límite',
  hint: 'Opcional. Hora de Madrid.',
  day: 'Día',
  time: 'Hora',
  today: 'Hoy',
  tomorrow: 'Mañana',
  clear: 'Quitar hora límite',
  /** A deadline the picker cannot express (set through the API, beyond tomorrow): kept unless changed. */
  kept: (label: string) => `Se mantiene: ${label}`,
  none: 'Sin hora límite',
  onTime: 'A tiempo',
  /** The lateness of a finished task: `Retrasada 12 min` (DEADLINE_TEXT.late) or this. */
  lateness: 'Retraso',
} as const;

/** The task Excel's deadline columns (CONTRACT §20: search, reports and exports show them). */
export const DEADLINE_COLUMNS = { dueAt: 'Hora límite', late: 'Retraso' } as const;

/** The board's card buttons named with their task (issue 28 item 7). */
export const CARD_ACTION_NAME = (action: string, trailerId: string) => `${action} tarea ${trailerId}`;
