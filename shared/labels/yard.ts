// Spanish texts of the yard (CONTRACT §17): the location catalogue, occupancy and the Patio view.
import type { LocationKind } from '../enums';

export const LOCATION_KIND_LABELS: Record<LocationKind, string> = {
  muelle: 'Muelle',
  campa: 'Campa',
  zona_swap: 'Zona Swap',
  aparcamiento: 'Aparcamiento',
  taller: 'Taller',
  lavadero: 'Lavadero',
  bascula: 'Báscula',
  puerta: 'Puerta',
  otro: 'Otro',
};

/** The CSV import's header row, in this order. */
export const LOCATION_CSV_COLUMNS = ['code', 'name', 'kind', 'zone', 'capacity', 'x', 'y'] as const;

/** Validation messages of a location (the schema's, and the CSV import's by line). */
export const LOCATION_INPUT = {
  codeRequired: 'El código es obligatorio',
  codeFormat: 'El código admite letras sin tilde, números, guiones, puntos y guiones bajos',
  codeTooLong: (max: number) => `El código admite como máximo ${max} caracteres`,
  nameRequired: 'El nombre es obligatorio',
  nameTooLong: (max: number) => `El nombre admite como máximo ${max} caracteres`,
  kindInvalid: `Tipo de ubicación no válido`,
  zoneRequired: 'La zona es obligatoria',
  zoneTooLong: (max: number) => `La zona admite como máximo ${max} caracteres`,
  capacityInvalid: (max: number) => `La capacidad debe ser un número entero entre 1 y ${max}`,
  cellInvalid: (axis: 'x' | 'y', max: number) =>
    `La posición ${axis} debe ser un número entero entre 0 y ${max}`,
  activeInvalid: 'Indica si la ubicación está activa (sí o no)',
  noChanges: 'No hay cambios que aplicar',
  csvRequired: 'Pega o elige un archivo CSV',
  csvTooLarge: (max: number) => `El CSV admite como máximo ${max} líneas`,
} as const;

/** The `detail` of the yard's refusals. */
export const YARD_ERR = {
  /** CONTRACT §17: a new task or a destination change to a full location. */
  locationFull: (name: string) => `La ubicación ${name} está completa`,
  locationNotFound: 'Ubicación no encontrada',
  /** A task naming a location id that is not in the catalogue (or is deactivated). */
  unknownLocation: 'La ubicación indicada no existe o está desactivada',
  codeTaken: (code: string) => `Ya existe una ubicación con el código ${code}`,
  nameTaken: (name: string) => `Ya existe una ubicación activa llamada ${name}`,
  /** Deactivating, or making a gate of, a place that holds trailers or expects one. */
  locationInUse: (name: string) =>
    `La ubicación ${name} tiene remolques o movimientos pendientes; vacíala antes`,
  csvHeader: `La primera línea debe ser la cabecera ${LOCATION_CSV_COLUMNS.join(',')}`,
  csvEmpty: 'El CSV no contiene ninguna ubicación',
  /** The import's 400: every bad line, by its number in the file (the header is line 1). */
  csvLines: (lines: readonly string[]) => `No se ha importado nada. ${lines.join('; ')}`,
  csvLine: (line: number, detail: string) => `Línea ${line}: ${detail}`,
  csvColumns: (count: number) => `tiene ${count} columnas y deben ser ${LOCATION_CSV_COLUMNS.length}`,
  csvDuplicateCode: (code: string, first: number) => `el código ${code} ya aparece en la línea ${first}`,
  csvDuplicateName: (name: string, first: number) => `el nombre ${name} ya aparece en la línea ${first}`,
  csvQuotes: 'hay unas comillas sin cerrar o mal colocadas',
  trailerNotInYard: (trailer: string) => `El remolque ${trailer} no está en el patio`,
  trailerHasOpenTask: (trailer: string) =>
    `El remolque ${trailer} tiene una tarea abierta; finalízala o elimínala antes de darle salida`,
} as const;

/** `{message}` answers of the yard's endpoints. */
export const YARD_MSG = {
  imported: (created: number, updated: number) =>
    `Importación completada: ${created} ${created === 1 ? 'ubicación nueva' : 'ubicaciones nuevas'}, ${updated} ${updated === 1 ? 'actualizada' : 'actualizadas'}`,
  deactivated: 'Ubicación desactivada',
  left: (trailer: string) => `El remolque ${trailer} ha salido del patio`,
} as const;

/** Activity-log rows of the yard (CONTRACT §10). */
export const YARD_LOG = {
  created: {
    action: 'Crear ubicación',
    details: (l: { code: string; name: string }) => `${l.code} · ${l.name}`,
  },
  updated: {
    action: 'Editar ubicación',
    details: (l: { code: string; name: string }, fields: string[]) =>
      `${l.code} · ${l.name}: cambios en ${fields.join(', ')}`,
  },
  deactivated: {
    action: 'Desactivar ubicación',
    details: (l: { code: string; name: string }) => `${l.code} · ${l.name}`,
  },
  imported: {
    action: 'Importar ubicaciones',
    details: (created: number, updated: number) => `${created} nuevas, ${updated} actualizadas`,
  },
  left: {
    action: 'Salida del patio',
    details: (trailer: string, place: string) => `Remolque ${trailer} sale del patio desde ${place}`,
  },
} as const;

/** The names of a location's fields, in the activity log's "cambios en …". */
export const LOCATION_FIELD_LABELS = {
  code: 'código',
  name: 'nombre',
  kind: 'tipo',
  zone: 'zona',
  capacity: 'capacidad',
  x: 'posición x',
  y: 'posición y',
  active: 'activa',
} as const;

/** GET /yard/trailers/export-excel: its file and columns. */
export const YARD_EXCEL = {
  fileName: (day: string) => `remolques_en_patio_${day}.xlsx`,
  sheet: 'Remolques en patio',
  headers: {
    trailer: 'Remolque',
    zone: 'Zona',
    location: 'Ubicación',
    code: 'Código',
    since: 'En la ubicación desde',
    dwellHours: 'Horas en patio',
    openTask: 'Tarea abierta',
    openTaskStatus: 'Estado de la tarea',
    onHold: 'Retenida',
  },
  yes: 'Sí',
} as const;
