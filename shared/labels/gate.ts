// Spanish texts of the gate's inspection and photos (CONTRACT §19 "Inspection" and "Photos", §24).
import type { InspectionCode } from '../schemas/gate';

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
