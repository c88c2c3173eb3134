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
