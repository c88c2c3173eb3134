// Spanish texts of the yard (CONTRACT §17): the location catalogue, occupancy and the Patio view.
import type { LocationKind } from '../enums';
import { DWELL_HOURS, type DwellLevel } from '../dwell';

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
    dwellHours: 'Horas en la ubicación',
    openTask: 'Tarea abierta',
    openTaskStatus: 'Estado de la tarea',
    onHold: 'Retenida',
  },
  yes: 'Sí',
} as const;

/** The Ubicaciones view (CONTRACT §17): the catalogue's table, its create/edit dialog and the CSV import. */
export const UI_LOCATIONS = {
  title: 'Catálogo de ubicaciones',
  stats: { active: 'Activas', capacity: 'Capacidad total', zones: 'Zonas', inactive: 'Desactivadas' },
  filter: 'Buscar ubicación',
  filterPlaceholder: 'Código, nombre, zona o tipo',
  shown: (shown: number, total: number) => `${shown} de ${total}`,
  noMatch: (query: string) => `Ninguna ubicación coincide con «${query}»`,
  empty: 'El catálogo está vacío',
  emptyHint: 'Crea la primera ubicación o importa el catálogo del patio desde un CSV.',
  columns: {
    code: 'Código',
    name: 'Nombre',
    kind: 'Tipo',
    zone: 'Zona',
    capacity: 'Capacidad',
    x: 'X',
    y: 'Y',
    state: 'Estado',
    actions: 'Acciones',
  },
  state: { active: 'Activa', inactive: 'Desactivada' },
  actions: {
    create: 'Nueva ubicación',
    import: 'Importar CSV',
    edit: 'Editar',
    deactivate: 'Desactivar',
    reactivate: 'Reactivar',
  },
  actionLabels: {
    edit: (name: string) => `Editar ${name}`,
    deactivate: (name: string) => `Desactivar ${name}`,
    reactivate: (name: string) => `Reactivar ${name}`,
  },
  form: {
    createTitle: 'Nueva ubicación',
    editTitle: 'Editar ubicación',
    createDescription: 'Un lugar del patio al que pueden ir los movimientos.',
    editDescription: (code: string) => `Cambios en ${code}`,
    code: 'Código',
    codeHint: 'Único; se guarda en mayúsculas (MUELLE-12)',
    name: 'Nombre',
    namePlaceholder: 'Ej. Muelle 12',
    kind: 'Tipo',
    zone: 'Zona',
    zoneHint: 'Agrupa las ubicaciones en el mapa (Campa B)',
    capacity: 'Capacidad (remolques)',
    x: 'Posición X',
    y: 'Posición Y',
    cellHint: (max: number) => `Celda del mapa, de 0 a ${max}`,
    create: 'Crear ubicación',
    creating: 'Creando…',
    save: 'Guardar cambios',
    saving: 'Guardando…',
  },
  deactivateDialog: {
    title: 'Desactivar ubicación',
    message: (name: string, code: string) =>
      `${name} (${code}) dejará de aparecer en el mapa del patio y en las sugerencias del formulario de tareas. Las tareas que ya la nombran la conservan, y puedes reactivarla más adelante.`,
    confirm: 'Desactivar',
  },
  importDialog: {
    title: 'Importar ubicaciones desde CSV',
    description:
      'Crea las ubicaciones nuevas y actualiza las existentes por su código. Se importan todas las líneas o ninguna.',
    header: 'La primera línea debe ser la cabecera',
    separators: 'Columnas separadas por comas o por punto y coma; la capacidad vacía vale 1.',
    kinds: 'Tipos',
    chooseFile: 'Elegir archivo CSV',
    noFile: 'Ningún archivo elegido',
    text: 'Contenido del CSV',
    textHint: 'Elige un archivo o pega aquí el texto.',
    /** A line under the header in the empty text box: what one place looks like. */
    example: 'MUELLE-12,Muelle 12,muelle,Muelles,1,4,10',
    fileRead: (name: string) => `Leído ${name}`,
    fileError: 'No se ha podido leer el archivo',
    confirm: 'Importar',
    importing: 'Importando…',
    linesTitle: 'Líneas con errores',
  },
  toast: {
    loadError: 'Error al cargar las ubicaciones',
    created: (name: string) => `Ubicación ${name} creada`,
    saved: (name: string) => `Ubicación ${name} guardada`,
    reactivated: (name: string) => `Ubicación ${name} reactivada`,
    createError: 'Error al crear la ubicación',
    saveError: 'Error al guardar la ubicación',
    deactivateError: 'Error al desactivar la ubicación',
    reactivateError: 'Error al reactivar la ubicación',
    importError: 'Error al importar las ubicaciones',
  },
} as const;

/** The task form's origin and destination (CONTRACT §17): suggestions from the catalogue, free text marked. */
export const UI_PLACE_INPUT = {
  suggestions: 'Ubicaciones del catálogo',
  offCatalogue: 'Fuera del catálogo',
  offCatalogueHint: 'Se guardará como texto libre, sin ubicación del mapa',
  /** A destination's free room (CONTRACT §19). */
  free: (n: number) => (n === 1 ? '1 libre' : `${n} libres`),
  full: 'completa',
} as const;

/**
 * CONTRACT §20: a place holding more trailers than its capacity (a completion is never refused for room: the
 * trailer is where the driver left it). Shown on the Patio's places and in the Attention lists.
 */
export const OVERFULL_LABEL = 'Sobreocupada';

/** The Patio view (CONTRACT §17): the live map by zone, the trailer list, and a trailer's panel. */
export const UI_YARD = {
  tabs: { label: 'Vista del patio', map: 'Mapa', list: 'Remolques' },
  summary: {
    label: 'Resumen del patio',
    trailers: 'En patio',
    incoming: 'Llegando',
    stale: `Más de ${DWELL_HOURS.stale} h`,
    free: 'Plazas libres',
  },
  loadError: 'Error al cargar el patio',
  empty: 'El patio no tiene ubicaciones',
  emptyHint: 'Los administradores y managers las dan de alta en Ubicaciones.',
  legend: {
    label: 'Leyenda',
    dwell: 'Tiempo en la ubicación',
    incoming: 'Llega',
    leaving: 'Tiene salida',
    held: 'Retenida',
    full: 'Completa',
  },
  dwell: {
    fresh: `Menos de ${DWELL_HOURS.long} h`,
    long: `De ${DWELL_HOURS.long} a ${DWELL_HOURS.stale} h`,
    stale: `Más de ${DWELL_HOURS.stale} h`,
  } satisfies Record<DwellLevel, string>,
  map: {
    label: 'Mapa del patio',
    zone: (zone: string, places: number) =>
      `${zone} · ${places} ${places === 1 ? 'ubicación' : 'ubicaciones'}`,
    usage: (used: number, capacity: number) => `${used}/${capacity}`,
    usageLabel: (used: number, capacity: number) =>
      `${used} de ${capacity} ${capacity === 1 ? 'plaza ocupada' : 'plazas ocupadas'}`,
    full: 'Completa',
    free: 'Libre',
    gateHint: 'Mover aquí saca el remolque del patio',
    more: (n: number) => `+${n} más`,
    trailer: (plate: string, dwell: string) => `Remolque ${plate}, ${dwell.toLowerCase()} aquí`,
    leaving: (destination: string) => `Sale hacia ${destination}`,
    held: 'Tarea retenida',
    incoming: (plate: string) => `Llega ${plate}`,
    incomingHeld: (plate: string) => `Llega ${plate} (tarea retenida)`,
    dragHint: 'Arrastra un remolque a otra ubicación para preparar su movimiento',
  },
  list: {
    title: 'Remolques en el patio',
    filter: 'Filtrar remolques',
    filterPlaceholder: 'Matrícula, zona, ubicación o destino',
    shown: (shown: number, total: number) => `${shown} de ${total}`,
    empty: 'No hay remolques en el patio',
    noMatch: (query: string) => `Ningún remolque coincide con «${query}»`,
    columns: {
      trailer: 'Remolque',
      zone: 'Zona',
      place: 'Ubicación',
      since: 'Desde',
      dwell: 'Tiempo en ubicación',
      task: 'Tarea abierta',
    },
    sortBy: (column: string) => `Ordenar por ${column.toLowerCase()}`,
    export: 'Exportar Excel',
  },
  panel: {
    title: (plate: string) => `Remolque ${plate}`,
    place: 'Ubicación',
    since: 'En la ubicación desde',
    dwell: 'Tiempo en la ubicación',
    openTask: 'Tarea abierta',
    noOpenTask: 'Sin tarea abierta',
    history: 'Últimos movimientos',
    historyEmpty: 'Sin movimientos registrados',
    historyError: 'No se ha podido cargar el historial',
    moveTo: 'Mover a…',
    movePlaceholder: 'Elige la ubicación de destino',
    moveFull: (name: string) => `${name} (completa)`,
    move: 'Preparar movimiento',
    busy: 'Tiene una tarea abierta: finalízala o elimínala antes de moverlo o darle salida.',
    leave: 'Dar salida',
    gone: 'El remolque ya no está en el patio.',
  },
  leaveDialog: {
    title: 'Dar salida del patio',
    message: (plate: string, place: string) =>
      `El remolque ${plate} dejará de figurar en ${place} y en el mapa. Su próximo movimiento finalizado lo volverá a situar en el patio.`,
    confirm: 'Dar salida',
  },
  toast: {
    leaveError: 'Error al dar salida al remolque',
  },
  /** CONTRACT §19: the Patio's plate search box. */
  plateSearch: {
    label: 'Buscar matrícula',
    placeholder: 'Buscar matrícula…',
    results: 'Remolques encontrados',
    found: (n: number) => (n === 1 ? '1 remolque' : `${n} remolques`),
    none: (query: string) => `Ningún remolque en el patio con la matrícula «${query}»`,
    more: (n: number) => `y ${n} más: escribe más de la matrícula`,
    open: (plate: string, place: string) => `Remolque ${plate}, en ${place}`,
  },
} as const;
