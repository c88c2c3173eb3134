// Web Push (CONTRACT §16): the answers of the subscription endpoints and their input rules. The text of
// a push itself is the notification's own title and message (TASK_NOTIFICATION).

export const PUSH_MSG = {
  subscribed: 'Avisos activados en este dispositivo',
  unsubscribed: 'Avisos desactivados en este dispositivo',
} as const;

export const PUSH_INPUT = {
  endpoint: 'La dirección de avisos debe ser una URL https',
  endpointTooLong: (max: number) => `La dirección de avisos admite como máximo ${max} caracteres`,
  keysRequired: 'Faltan las claves de la suscripción (p256dh y auth)',
  p256dh: 'La clave p256dh debe ser una clave pública P-256 en base64url',
  auth: 'La clave auth debe ser un secreto de 16 bytes en base64url',
  subscriptionNotFound: 'Suscripción no encontrada',
} as const;

/** What the service worker shows when a push carries no usable title. */
export const PUSH_NOTICE = {
  fallbackTitle: 'Torre de Control',
} as const;
