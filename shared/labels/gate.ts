// Spanish texts of the gate's inspection and photos (CONTRACT §19 "Inspection" and "Photos", §24).
import type { InspectionCode } from '../schemas/gate';
import { TRAILER_ERR } from './trailers';
import { YARD_ERR } from './yard';

/** The checklist's names (CONTRACT §19, §24), in the checklist's order. */
export const INSPECTION_ITEM_LABELS: Record<InspectionCode, string> = {
  neumaticos: 'Neumáticos',
  luces: 'Luces',
  puertas: 'Puertas',
  lona_techo: 'Lona / techo',
  precinto: 'Precinto',
  chasis: 'Chasis',
  limpieza: 'Limpieza',
};

/** Refusals of an inspection's input (CONTRACT §19). */
export const INSPECTION_INPUT = {
  itemsInvalid: 'La revisión debe ser una lista de elementos',
  codeInvalid: (code: unknown) =>
    `Elemento de la revisión desconocido${typeof code === 'string' ? `: ${code}` : ''}`,
  codeRepeated: (name: string) => `El elemento ${name} aparece más de una vez en la revisión`,
  okInvalid: 'Indica si cada elemento de la revisión está bien (ok: true o false)',
  noteTooLong: (max: number) => `La nota de un elemento admite como máximo ${max} caracteres`,
  photoIdsInvalid: 'photo_ids debe ser una lista de identificadores de fotos',
  photoRepeated: 'Una foto aparece más de una vez en la revisión',
  tooManyPhotos: (max: number) => `Como máximo ${max} fotos por revisión`,
} as const;

/** Answers of POST/GET /gate/photos and of the photos named by an entry (CONTRACT §19). */
export const GATE_PHOTO_ERR = {
  tooLarge: 'La foto no puede superar 15 MB',
  notImage: 'El archivo no es una imagen',
  tooManyPixels: 'La imagen es demasiado grande',
  invalid: 'Foto no válida',
  notFound: 'Foto no encontrada',
  missing: 'Falta la foto: envíala como multipart/form-data en el campo photo',
  oneOnly: 'Envía una sola foto por petición',
  busy: 'El servidor está procesando otras fotos; vuelve a intentarlo en unos segundos',
} as const;

// ---- Gate visits (CONTRACT §19 "Gate visits") ----------------------------------------------------------

/** Validation messages of the gate's requests. */
export const GATE_INPUT = {
  notText: (label: string) => `${label} debe ser un texto`,
  adrInvalid: 'Indica si el remolque lleva mercancía peligrosa (adr: true o false)',
  appointmentInvalid: 'La hora de la cita no es válida',
  visitsQuery: 'Indica open=true o date=AAAA-MM-DD',
} as const;

/** The `detail` of the gate's refusals (CONTRACT §19), the same words the yard and the record use. */
export const GATE_ERR = {
  locationFull: YARD_ERR.locationFull,
  gateHoldsNoTrailer: TRAILER_ERR.gateHoldsNoTrailer,
  unknownLocation: TRAILER_ERR.unknownLocation,
  alreadyInYard: (trailer: string, place: string) => `El remolque ${trailer} ya está en el patio (${place})`,
  pendingMove: 'El remolque tiene un movimiento pendiente',
  notInYard: YARD_ERR.trailerNotInYard,
  visitNotFound: 'Visita no encontrada',
  visitClosed: 'La visita ya está cerrada',
} as const;

/** Activity-log rows of the gate (CONTRACT §10, type `gate`). */
export const GATE_LOG = {
  entry: {
    action: 'Entrada por portería',
    details: (truck: string, carrier: string, trailer: string | null, place: string | null) =>
      `${truck} (${carrier})${trailer ? ` deja ${trailer}${place ? ` en ${place}` : ''}` : ''}`,
  },
  exit: {
    action: 'Salida por portería',
    details: (truck: string, carrier: string, trailer: string | null) =>
      `${truck} (${carrier})${trailer ? ` se lleva ${trailer}` : ''}`,
  },
} as const;

/** The Portería view (CONTRACT §19). */
export const UI_GATE = {
  title: 'Portería',
  // The entry form
  entryTitle: 'Registrar entrada',
  trailerSection: 'Remolque',
  trailerPlate: 'Matrícula del remolque',
  trailerPlateHint: 'Déjala vacía si el camión entra sin remolque',
  searchingTrailer: 'Buscando remolque…',
  knownTrailer: (trailer: string) => `Remolque conocido: ${trailer}`,
  newTrailer: 'Remolque nuevo',
  knownSpelling: (trailer: string) => `¿${trailer}?`,
  trailerInYard: (place: string) => `Figura en el patio (${place})`,
  trailerDamaged: (note: string | null) => `Con daños${note ? `: ${note}` : ''}`,
  truckSection: 'Camión',
  truckPlate: 'Matrícula del camión',
  carrier: 'Transportista',
  carrierSuggestions: 'Transportistas conocidos',
  driverName: 'Conductor',
  appointment: 'Hora de la cita',
  appointmentHint: 'Hoy; vacía si no tiene cita',
  loadSection: 'Carga',
  kind: 'Tipo',
  loadState: 'Estado de carga',
  seal: 'Precinto',
  reference: 'Referencia',
  adr: 'ADR (mercancía peligrosa)',
  reeferSetpoint: 'Consigna del frigorífico (°C)',
  placeSection: 'Ubicación',
  placeFree: (free: number) => (free === 1 ? '1 libre' : `${free} libres`),
  noSuggestions: 'No hay ninguna ubicación con sitio para este remolque',
  suggestionsError: 'No se pudieron cargar las ubicaciones sugeridas',
  placeRequired: 'Elige dónde se deja el remolque',
  inspectionSection: 'Revisión',
  inspectionHint: 'Marca cada elemento revisado; un elemento mal marca el remolque con daños',
  itemOk: 'Bien',
  itemNotOk: 'Mal',
  itemNote: (name: string) => `Nota de ${name}`,
  itemNotePlaceholder: '¿Qué le pasa?',
  takePhoto: 'Hacer foto',
  photo: (n: number) => `Foto ${n}`,
  removePhoto: (n: number) => `Quitar la foto ${n}`,
  photoUploading: 'Subiendo…',
  photoFailed: 'No se pudo subir',
  photosPending: 'Espera a que terminen de subir las fotos',
  submit: 'Registrar entrada',
  entered: (truck: string) => `Entrada registrada: ${truck}`,
  enterError: 'No se pudo registrar la entrada',
  clear: 'Vaciar formulario',
  exitThereAndEnter: 'Dar salida allí y registrar la entrada',
  noVisitHolds: (trailer: string) =>
    `Ninguna visita abierta tiene el remolque ${trailer}: dale salida desde el Patio y vuelve a registrar la entrada`,
  // The trucks in the yard now
  inYardTitle: 'Camiones en el patio',
  inYardEmpty: 'No hay camiones en el patio',
  loadError: 'No se pudieron cargar los camiones en el patio',
  retry: 'Reintentar',
  enteredAt: (time: string) => `Entró a las ${time}`,
  appointmentAt: (time: string) => `Cita ${time}`,
  stay: 'Estancia',
  wait: 'Espera',
  dropped: (trailer: string) => `Dejó ${trailer}`,
  exit: 'Dar salida',
  exitTitle: (truck: string) => `Salida de ${truck}`,
  pickedTrailer: 'Remolque que se lleva',
  pickedTrailerHint: 'Vacío si sale sin remolque',
  exitSeal: 'Precinto a la salida',
  confirmExit: 'Confirmar salida',
  cancel: 'Cancelar',
  exited: (truck: string) => `Salida registrada: ${truck}`,
  exitError: 'No se pudo registrar la salida',
  sealMismatch: (truck: string, seal: string) =>
    `${truck}: el precinto ${seal} no coincide con el registrado del remolque`,
  dismiss: 'Entendido',
} as const;

/** Informes → Tiempos de espera (CONTRACT §19 "Waiting times"): the carriers and the waits over 1 h. */
export const UI_TRUCK_STAYS = {
  title: 'Tiempos de espera',
  subtitle: 'Espera de los camiones que salieron en el periodo, por transportista',
  from: 'Desde',
  to: 'Hasta',
  exportExcel: 'Exportar Excel',
  exported: 'Excel de tiempos de espera descargado',
  exportError: 'No se pudo exportar el Excel de tiempos de espera',
  loadError: 'No se pudieron cargar los tiempos de espera',
  carriers: 'Transportistas',
  columns: {
    carrier: 'Transportista',
    visits: 'Visitas',
    p50: 'Mediana',
    p90: 'p90',
    max: 'Máxima',
    over1h: 'Más de 1 h',
  },
  noVisits: 'Ningún camión salió en este periodo',
  longWaits: 'Esperas de más de 1 h',
  noLongWaits: 'Ninguna espera pasó de 1 h',
  visit: {
    truck: 'Camión',
    carrier: 'Transportista',
    entered: 'Entrada',
    exited: 'Salida',
    wait: 'Espera',
  },
} as const;

/** GET /admin/reports/truck-stays/export-excel: its file and columns (CONTRACT §19 "Waiting times"). */
export const TRUCK_STAYS_EXCEL = {
  fileName: (from: string, to: string) => `tiempos_espera_${from}_${to}.xlsx`,
  carriersSheet: 'Transportistas',
  visitsSheet: 'Esperas de más de 1 h',
  headers: {
    carrier: 'Transportista',
    visits: 'Visitas',
    p50: 'Espera mediana (min)',
    p90: 'Espera p90 (min)',
    max: 'Espera máxima (min)',
    over1h: 'Visitas de más de 1 h',
    truck: 'Camión',
    driver: 'Conductor',
    appointment: 'Cita',
    entered: 'Entrada',
    exited: 'Salida',
    stay: 'Estancia (min)',
    wait: 'Espera (min)',
    dropped: 'Remolque dejado',
    picked: 'Remolque llevado',
  },
} as const;
