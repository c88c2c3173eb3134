// Spanish texts of the control room (CONTRACT §15): the wall screen at /pantalla and the Attention list
// that the wall and the dashboard share. Durations come in already written by formatDuration. Texts a
// board card also shows (Finalizadas (24 h), Sin conexión desde hace…) are UI_BOARD's.

export const UI_ATTENTION = {
  title: 'Requiere atención',
  count: (n: number) => `${n} ${n === 1 ? 'tarea requiere' : 'tareas requieren'} atención`,
  empty: 'Nada requiere atención',
  held: (reason: string | null) => (reason ? `Retenida: ${reason}` : 'Retenida'),
  driverOffline: (d: string) => `Conductor sin conexión desde hace ${d}`,
  inProgressLong: (d: string) => `En proceso desde hace ${d}`,
  poolWaiting: (d: string) => `Esperando conductor desde hace ${d}`,
  /** CONTRACT §19: two open tasks whose plates are one trailer (a migration re-keyed them). */
  duplicateTrailer: 'Remolque duplicado',
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
