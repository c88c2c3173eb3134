// Spanish texts of the trailers (CONTRACT §19, §24): kinds, load states, the record's refusals.
import type { LoadState, TrailerKind } from '../enums';

export const TRAILER_KIND_LABELS: Record<TrailerKind, string> = {
  lona: 'Lona',
  frigorifico: 'Frigorífico',
  caja: 'Caja',
  cisterna: 'Cisterna',
  plataforma: 'Plataforma',
  portacontenedores: 'Portacontenedores',
  caja_movil: 'Caja móvil',
  otro: 'Otro',
};

export const LOAD_STATE_LABELS: Record<LoadState, string> = {
  cargado: 'Cargado',
  vacio: 'Vacío',
  desconocido: 'Desconocido',
};

/** Validation messages of the trailer's record. */
export const TRAILER_INPUT = {
  kindInvalid: 'Tipo de remolque no válido',
  loadStateInvalid: 'Estado de carga no válido',
  tooLong: (label: string, max: number) => `${label} admite como máximo ${max} caracteres`,
  setpointInvalid: (min: number, max: number) =>
    `La consigna del frigorífico debe estar entre ${min} y ${max} °C`,
  versionRequired: 'Falta la versión del remolque que estabas editando',
  locationRequired: 'La ubicación es obligatoria',
  noteRequired: 'La nota es obligatoria',
  noChanges: 'No hay cambios que aplicar',
} as const;

/** The `detail` of the trailers' refusals (CONTRACT §19). */
export const TRAILER_ERR = {
  notFound: 'Remolque no encontrado',
  changedMeanwhile: 'El remolque ha cambiado mientras lo editabas; revisa los datos y vuelve a intentarlo',
  unknownLocation: 'Ubicación desconocida',
  gateHoldsNoTrailer: 'Un remolque no puede quedarse en una puerta',
  notDamaged: (trailer: string) => `El remolque ${trailer} no tiene daños`,
} as const;

/** CONTRACT §19 "Damage": the hold of a damaged trailer's pool tasks, and what staff are asked before moving one. */
export const TRAILER_DAMAGE = {
  holdReason: (note: string) => `Remolque con daños: ${note}`,
  /** An en_proceso task keeps its driver and shows this. */
  mark: 'Remolque con daños',
  confirmMove: 'El remolque tiene daños. ¿Moverlo igualmente?',
} as const;

/** Activity-log rows of the trailers (CONTRACT §10). */
export const TRAILER_LOG = {
  positioned: {
    action: 'Corregir ubicación de remolque',
    details: (trailer: string, place: string, note: string | null) =>
      `${trailer} → ${place}${note ? ` · ${note}` : ''}`,
  },
  damaged: {
    action: 'Marcar remolque con daños',
    details: (trailer: string, note: string) => `${trailer}: ${note}`,
  },
  damageCleared: {
    action: 'Quitar daños de remolque',
    details: (trailer: string, note: string) => `${trailer}: ${note}`,
  },
  edited: {
    action: 'Editar remolque',
    details: (trailer: string, fields: readonly string[]) => `${trailer}: ${fields.join(', ')}`,
  },
} as const;

/** The record's fields as the activity log names them. */
export const TRAILER_FIELD_LABELS = {
  kind: 'Tipo',
  load_state: 'Estado de carga',
  carrier: 'Transportista',
  seal: 'Precinto',
  reference: 'Referencia',
  adr: 'ADR',
  reefer_setpoint_c: 'Consigna',
  notes: 'Notas',
} as const;

/** A reefer setpoint as shown: `−18 °C` (a true minus sign, Spanish decimals). */
export const formatSetpoint = (c: number): string =>
  `${c < 0 ? '−' : ''}${Math.abs(c).toLocaleString('es-ES', { maximumFractionDigits: 1 })} °C`;

/** The marks a task, a Patio chip and the driver's card show of a trailer (CONTRACT §19). */
export const TRAILER_MARKS = {
  adr: 'ADR',
  adrTitle: 'Mercancía peligrosa (ADR)',
  reefer: (c: number) => `❄ ${formatSetpoint(c)}`,
  reeferTitle: (c: number) => `Frigorífico a ${formatSetpoint(c)}`,
  damaged: 'Remolque con daños',
  loadTitle: (state: string) => `Carga: ${state}`,
  kindTitle: (kind: string) => `Tipo de remolque: ${kind}`,
  label: 'Marcas del remolque',
} as const;

/** The trailer's columns of the exports (CONTRACT §19: the exports show its marks). */
export const TRAILER_EXCEL_HEADERS = {
  trailerKind: 'Tipo de remolque',
  loadState: 'Estado de carga',
  adr: 'ADR',
  reeferSetpoint: 'Consigna frigorífico (°C)',
  damaged: 'Con daños',
} as const;
export const TRAILER_EXCEL_YES = 'Sí';

/** The create form's offer of a known trailer typed otherwise (CONTRACT §19: `¿R-4136-FVR?`). */
export const TRAILER_OFFER = {
  offer: (trailerId: string) => `¿${trailerId}?`,
  title: (trailerId: string) => `Usar el remolque conocido ${trailerId}`,
} as const;
