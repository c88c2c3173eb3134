// Spanish texts of the webhooks (CONTRACT §21 "Webhooks", "Targets", "Delivery").
import type { WebhookDeliveryStatus, WebhookEvent } from '../enums';

/** Refusals and validation messages of the admin routes. */
export const WEBHOOK_ERR = {
  /** A target refused when the webhook is created or edited (exact text: CONTRACT §21). */
  targetRefused: 'Dirección de webhook no permitida',
  /** The same rule met again when sending (a failed attempt's `last_error`; exact text: CONTRACT §21). */
  addressRefused: 'Dirección no permitida',
  urlInvalid: 'La dirección debe ser una URL http o https',
  urlTooLong: (max: number) => `La dirección admite como máximo ${max} caracteres`,
  eventsRequired: 'Elige al menos un evento',
  eventInvalid: 'Evento de webhook no válido',
  descriptionTooLong: (max: number) => `La descripción admite como máximo ${max} caracteres`,
  notFound: 'Webhook no encontrado',
  deliveryNotFound: 'Entrega no encontrada',
  /** A pending delivery is already queued: moving it would let later events of its task overtake it. */
  deliveryPending: 'La entrega ya está en cola',
  nothingToChange: 'No hay nada que cambiar',
} as const;

/** What a failed attempt says of itself (`last_error`). */
export const WEBHOOK_FAILURE = {
  timeout: 'Sin respuesta completa en 10 s',
  redirect: (status: number) => `Redirección (${status}) no seguida`,
  status: (status: number) => `El receptor respondió ${status}`,
  network: (message: string) => `Error de conexión: ${message}`,
} as const;

/** CONTRACT §21: the `webhook_disabled` notification every admin gets. */
export const WEBHOOK_NOTIFICATION = {
  title: 'Webhook desactivado',
  message: (url: string) => `El webhook ${url} se ha desactivado tras 24 h de fallos`,
} as const;

/** The activity log's lines (type `integration`). */
export const WEBHOOK_LOG = {
  created: { action: 'Webhook creado', details: (url: string) => `Webhook ${url}` },
  updated: { action: 'Webhook modificado', details: (url: string) => `Webhook ${url}` },
  deleted: { action: 'Webhook eliminado', details: (url: string) => `Webhook ${url}` },
  rotated: { action: 'Secreto de webhook renovado', details: (url: string) => `Webhook ${url}` },
  disabled: {
    action: 'Webhook desactivado',
    details: (url: string) => `El webhook ${url} se ha desactivado tras 24 h de fallos`,
  },
} as const;

/** CONTRACT §21 "Events": each event as the admin's checklist names it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'task.created': 'Tarea creada',
  'task.updated': 'Tarea modificada',
  'task.assigned': 'Tarea asignada',
  'task.completed': 'Tarea finalizada',
  'task.returned': 'Tarea devuelta',
  'task.reopened': 'Tarea reabierta',
  'task.held': 'Tarea retenida',
  'task.released': 'Tarea liberada',
  'task.deleted': 'Tarea eliminada',
  'trailer.arrived': 'Remolque llega al patio',
  'trailer.departed': 'Remolque sale del patio',
  'trailer.moved': 'Remolque movido',
  'trailer.damaged': 'Remolque dañado',
  'trailer.damage_cleared': 'Daño del remolque resuelto',
  'visit.opened': 'Entrada de camión',
  'visit.closed': 'Salida de camión',
};

export const WEBHOOK_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pendiente',
  delivered: 'Entregada',
  failed: 'Fallida',
};

/** Sistema → Integraciones › Webhooks. */
export const UI_WEBHOOKS = {
  title: 'Webhooks',
  subtitle:
    'La torre avisa a otros sistemas de lo que pasa: cada evento se envía firmado (Standard Webhooks), en orden por tarea o remolque, y se reintenta si falla.',
  create: 'Nuevo webhook',
  empty: 'Aún no hay webhooks',
  loadError: 'No se pudieron cargar los webhooks',
  active: 'Activo',
  inactive: 'Inactivo',
  disabled: (at: string) => `Desactivado tras 24 h de fallos (${at})`,
  failingSince: (at: string) => `Falla desde ${at}`,
  events: (n: number) => (n === 1 ? '1 evento' : `${n} eventos`),
  test: 'Probar',
  tested: (code: number | null, ms: number) =>
    code === null ? `Sin respuesta (${ms} ms)` : `Respondió ${code} en ${ms} ms`,
  testError: 'No se pudo probar el webhook',
  deliveries: 'Entregas',
  edit: 'Editar',
  remove: 'Eliminar',
  removeTitle: 'Eliminar el webhook',
  removeMessage: (url: string) => `Dejarán de enviarse eventos a ${url} y se borrarán sus entregas.`,
  removed: 'Webhook eliminado',
  removeError: 'No se pudo eliminar el webhook',
  rotate: 'Renovar secreto',
  rotateTitle: 'Renovar el secreto',
  rotateMessage: 'El secreto actual dejará de valer: el receptor debe usar el nuevo desde el próximo envío.',
  rotateError: 'No se pudo renovar el secreto',
  form: {
    createTitle: 'Nuevo webhook',
    editTitle: 'Editar webhook',
    url: 'Dirección (URL)',
    urlPlaceholder: 'https://wms.example.com/torre/eventos',
    description: 'Descripción',
    events: 'Eventos',
    all: 'Todos',
    active: 'Activo',
    submitCreate: 'Crear webhook',
    submitEdit: 'Guardar',
    error: 'No se pudo guardar el webhook',
    saved: 'Webhook guardado',
  },
  secretShown: {
    title: 'Copia el secreto ahora',
    warning:
      'Con este secreto el receptor comprueba la firma de cada envío. No se volverá a mostrar: guárdalo en un lugar seguro.',
  },
  deliveriesDialog: {
    title: (url: string) => `Entregas a ${url}`,
    empty: 'Aún no hay entregas',
    loadError: 'No se pudieron cargar las entregas',
    columns: {
      event: 'Evento',
      status: 'Estado',
      attempts: 'Intentos',
      code: 'Código',
      error: 'Error',
      created: 'Creada',
    },
    retry: 'Reintentar',
    retried: 'Entrega en cola de nuevo',
    retryError: 'No se pudo reintentar la entrega',
  },
} as const;
