// Spanish texts of the webhooks (CONTRACT §21 "Webhooks", "Targets", "Delivery").

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
