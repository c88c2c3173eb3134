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
  /** CONTRACT §23: an endpoint that is not an https URL of a browser's push service (or PUSH_ALLOWED_HOSTS). */
  serviceNotAllowed: 'Servicio de avisos no admitido',
} as const;

/** Start-up refusals (CONTRACT §14) of the push settings. PUSH_PROXY is not echoed: it may carry a password. */
export const PUSH_STARTUP_ERR = {
  allowedHosts: (entry: string) =>
    `PUSH_ALLOWED_HOSTS debe ser una lista de nombres o direcciones separados por comas, sin puerto ni ruta (no sirve «${entry}»)`,
  proxy: 'PUSH_PROXY debe ser una URL http:// o https:// (la del proxy por el que salen los avisos)',
} as const;

/** What the service worker shows when a push carries no usable title. */
export const PUSH_NOTICE = {
  fallbackTitle: 'Torre de Control',
} as const;

/** The driver's `Activar avisos` card (CONTRACT §16) and what it says when the browser cannot or will not. */
export const PUSH_UI = {
  offerTitle: 'Avisos con el móvil bloqueado',
  offerWhy: 'Las tareas nuevas sonarán y vibrarán aunque tengas el móvil bloqueado o la app cerrada.',
  enable: 'Activar avisos',
  notNow: 'Ahora no',
  deniedTitle: 'Los avisos están bloqueados en este navegador',
  deniedHow:
    'Para recibirlos: toca el candado junto a la dirección de la página › Permisos › Notificaciones › Permitir, y recarga la página.',
  deniedHowInstalled:
    'Con la app instalada: Ajustes del teléfono › Notificaciones (o Aplicaciones) › Torre de Control › Permitir.',
  iosTitle: 'Avisos en iPhone',
  iosHint:
    'En iPhone los avisos solo llegan a la app instalada: toca Compartir › Añadir a pantalla de inicio y ábrela desde el icono (iOS 16.4 o posterior).',
  dismiss: 'Entendido',
  /** Staff's header button (CONTRACT §23): the same avisos on an office computer or a manager's phone. */
  staffEnable: 'Activar avisos en este dispositivo',
  /** Why `Activar avisos` did not work (a toast). */
  failed: {
    unsupported: 'Este navegador no puede recibir avisos',
    noServiceWorker: 'La app no está lista para recibir avisos: recarga la página e inténtalo de nuevo',
    subscribe: 'El navegador no pudo activar los avisos: inténtalo de nuevo más tarde',
    server: 'No se pudieron activar los avisos en el servidor',
  },
} as const;
