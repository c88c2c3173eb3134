// Spanish texts of the tasks engine: answers, notifications and activity-log rows (CONTRACT §5, §10).
import type { TaskStatus } from '../enums';
import { STATUS_LABELS } from './common';

/** How a task is named in a sentence: its movement and trailer, the way the yard talks about it. */
export const taskLabel = (t: { title: string; trailerId: string }): string =>
  `${t.title} remolque ${t.trailerId}`;
const route = (t: { origin: string; destination: string }) => `${t.origin} → ${t.destination}`;

type Named = { title: string; trailerId: string; origin: string; destination: string };

/** `{message}` answers of the task endpoints. */
export const TASK_MSG = {
  selfAssigned: 'Te has asignado esta tarea',
  completed: 'Tarea completada. ¡Buen trabajo!',
  returned: 'Tarea devuelta a bolsa de trabajo',
  deleted: 'Tarea eliminada',
  rankingsReset: 'Rankings reiniciados: todos los conductores vuelven a 0 movimientos',
} as const;

/** A 400 of PUT /tasks/{id}: a driver only goes with a move to (or a task in) En Proceso. */
export const ASSIGNEE_NEEDS_EN_PROCESO = 'Solo se asigna un conductor a una tarea En Proceso';

/** PUT /tasks/{id} hold input (CONTRACT §15): the zod messages of on_hold and hold_reason. */
export const HOLD_INPUT = {
  onHoldInvalid: 'Indica si la tarea queda retenida (sí o no)',
  reasonInvalid: 'Motivo de retención no válido',
  reasonTooLong: (max: number) => `El motivo de la retención admite como máximo ${max} caracteres`,
  reasonWithoutHold: 'El motivo de la retención solo se indica al retener la tarea',
} as const;

export const TASK_NOTIFICATION = {
  assigned: {
    title: 'Nueva tarea asignada',
    message: (t: Named) => `${taskLabel(t)}: ${route(t)}`,
  },
  congratulations: {
    title: '¡Buen trabajo!',
    message: (t: Named, movements: number) =>
      `Has completado ${taskLabel(t)}. Llevas ${movements} ${movements === 1 ? 'movimiento' : 'movimientos'}`,
  },
  withdrawn: {
    title: 'Tarea retirada',
    message: (t: Named) => `${taskLabel(t)} ya no está asignada a ti`,
  },
  closedByStaff: {
    title: 'Tarea finalizada por la torre',
    message: (t: { trailerId: string }) => `La torre ha finalizado tu tarea ${t.trailerId}`,
  },
  returned: {
    title: 'Tarea devuelta a la bolsa',
    message: (t: Named, driver: string, reason: string | null) =>
      `${driver} devolvió ${taskLabel(t)}${reason ? ` (${reason})` : ''}`,
  },
} as const;

const moved = (from: TaskStatus, to: TaskStatus) => `${STATUS_LABELS[from]} → ${STATUS_LABELS[to]}`;

/** Activity-log rows `{action, details}` of tasks (CONTRACT §10). */
export const TASK_LOG = {
  created: { action: 'Crear tarea', details: (t: Named) => `Nueva tarea ${taskLabel(t)}: ${route(t)}` },
  updated: {
    action: 'Editar tarea',
    details: (t: Named, fields: string[]) => `${taskLabel(t)}: cambios en ${fields.join(', ')}`,
  },
  assigned: {
    action: 'Asignar tarea',
    details: (t: Named, driver: string) => `${taskLabel(t)} asignada a ${driver}`,
  },
  autoAssigned: {
    action: 'Asignación automática',
    details: (t: Named, driver: string) => `${taskLabel(t)} asignada automáticamente a ${driver}`,
  },
  selfAssigned: {
    action: 'Autoasignarse tarea',
    details: (t: Named, driver: string) => `${driver} se asignó ${taskLabel(t)}`,
  },
  statusChanged: {
    action: 'Mover tarea',
    details: (t: Named, from: TaskStatus, to: TaskStatus) => `${taskLabel(t)}: ${moved(from, to)}`,
  },
  completed: {
    action: 'Completar tarea',
    details: (t: Named, driver: string | null) =>
      driver ? `${driver} completó ${taskLabel(t)}` : `${taskLabel(t)} finalizada sin conductor`,
  },
  returned: {
    action: 'Devolver tarea',
    details: (t: Named, driver: string, reason: string | null) =>
      `${driver} devolvió ${taskLabel(t)} a la bolsa${reason ? ` (motivo: ${reason})` : ''}`,
  },
  reopened: {
    action: 'Reabrir tarea',
    details: (t: Named, to: TaskStatus) => `${taskLabel(t)} reabierta en ${STATUS_LABELS[to]}`,
  },
  released: {
    action: 'Liberar tarea',
    details: (t: Named, driver: string) =>
      `${taskLabel(t)} vuelve a la bolsa: ${driver} ya no está disponible como conductor`,
  },
  held: {
    action: 'Retener tarea',
    details: (t: Named, reason: string | null) =>
      `${taskLabel(t)} retenida en la bolsa${reason ? ` (motivo: ${reason})` : ''}`,
  },
  unheld: {
    action: 'Soltar tarea retenida',
    details: (t: Named) => `${taskLabel(t)} deja de estar retenida y vuelve a repartirse`,
  },
  deleted: { action: 'Eliminar tarea', details: (t: Named) => `Se eliminó ${taskLabel(t)}` },
  rankingsReset: {
    action: 'Reiniciar rankings',
    details: (drivers: number) =>
      `Se pusieron a 0 los movimientos de ${drivers} ${drivers === 1 ? 'conductor' : 'conductores'}`,
  },
} as const;

/** Field names of a task as the activity log shows them. */
export const TASK_FIELD_LABELS = {
  title: 'tipo de movimiento',
  description: 'descripción',
  origin: 'origen',
  destination: 'destino',
  trailer_id: 'remolque',
  priority: 'prioridad',
  vehicle_type: 'tipo de vehículo',
  load_state_after: 'estado de carga al terminar',
  due_at: 'hora límite',
} as const;

/** CONTRACT §20 deadlines: the 400s of create and PUT, and what a card says of its deadline. */
export const DEADLINE_TEXT = {
  past: 'La hora límite ya ha pasado',
  tooFar: 'La hora límite es demasiado lejana',
  invalid: 'Hora límite no válida',
  today: (time: string) => `Antes de ${time}`,
  tomorrow: (time: string) => `Antes de mañana ${time}`,
  later: (date: string, time: string) => `Antes del ${date} ${time}`,
  left: (duration: string) => `Faltan ${duration}`,
  late: (duration: string) => `Retrasada ${duration}`,
} as const;

/** CONTRACT §20 "Proof of the move": the completion's 400s, the phone's scan and what a finished task shows. */
export const PROOF_TEXT = {
  unknownPlace: 'Ubicación desconocida',
  proofInvalid: 'Prueba no válida (scan o manual)',
  droppedAt: (place: string) => `Dejado en ${place}`,
  scanButton: 'Escanear ubicación',
  scanTitle: 'Escanear ubicación',
  scanHelp: 'Apunta la cámara a la etiqueta de la ubicación donde has dejado el remolque.',
  codeLabel: 'O escribe el código de la ubicación',
  codeSubmit: 'Confirmar código',
  cameraStarting: 'Abriendo la cámara…',
  cameraUnavailable: 'No se puede usar la cámara; escribe el código de la etiqueta.',
  unknownCode: (code: string) => `El código ${code} no es de ninguna ubicación activa`,
  otherPlace: (place: string) => `¿Lo has dejado en ${place}?`,
  otherPlaceHelp: (destination: string) =>
    `El destino de la tarea es ${destination}. Si confirmas, el remolque queda donde lo has dejado.`,
  confirmOther: 'Sí, lo he dejado ahí',
  cancelOther: 'No, volver a escanear',
  close: 'Cancelar',
  /** The A4 sheet of labels (Ubicaciones → Imprimir etiquetas). */
  printLabels: 'Imprimir etiquetas',
  labelsTitle: 'Etiquetas de ubicaciones',
  labelsHelp: 'Una etiqueta por ubicación activa, con el código QR de su código. Imprímela en A4.',
  print: 'Imprimir',
  back: 'Volver a Ubicaciones',
  labelsLoading: 'Preparando las etiquetas…',
  noLabels: 'No hay ubicaciones activas',
} as const;
