// Every text the client shows that is not an enum label (common.ts) or a server detail (errors.ts).
// Grouped by screen; the SPEC §8 toasts are all here so every view takes them from one place.
import { plural } from './common';

export const UI_COMMON = {
  cancel: 'Cancelar',
  close: 'Cerrar',
  loading: 'Cargando…',
  retry: 'Reintentar',
  refresh: 'Actualizar',
  notYetAvailable: 'Esta vista aún no está disponible',
  notYetAvailableHint: 'Esta parte de la aplicación se está construyendo. Vuelve a intentarlo más adelante.',
  skipToContent: 'Saltar al contenido',
} as const;

export const UI_LOGIN = {
  loginMode: 'Iniciar sesión',
  registerMode: 'Crear cuenta',
  modeSwitchLabel: 'Modo de acceso',
  loginIntro: 'Accede con tu cuenta para ver los movimientos del patio.',
  registerIntro: 'Solicita una cuenta. Un administrador debe aprobarla antes de que puedas usarla.',
  name: 'Nombre completo',
  namePlaceholder: 'Nombre y apellidos',
  email: 'Email',
  emailPlaceholder: 'nombre@empresa.com',
  password: 'Contraseña',
  passwordPlaceholder: '••••••••',
  role: 'Rol solicitado',
  submitLogin: 'Iniciar sesión',
  submitRegister: 'Crear cuenta',
  submittingLogin: 'Iniciando sesión…',
  submittingRegister: 'Creando cuenta…',
  /** The SPEC §2 detail fragment that turns a refused login into the pending screen. */
  pendingMarker: 'pendiente de aprobación',
} as const;

/** CONTRACT §13. */
export const UI_PENDING = {
  title: 'Cuenta pendiente de aprobación',
  message: 'Tu cuenta está esperando la aprobación de un administrador',
  hint: 'Cuando un administrador apruebe tu solicitud podrás iniciar sesión con tu email y contraseña.',
  back: 'Volver al inicio de sesión',
} as const;

/** CONTRACT §14: the login answered `password_change_required` (an admin reset the password). */
export const UI_CHANGE_PASSWORD = {
  title: 'Cambia tu contraseña',
  message: 'Un administrador ha restablecido tu contraseña. Elige una nueva para continuar.',
  newPassword: 'Nueva contraseña',
  repeat: 'Repite la nueva contraseña',
  hint: 'Entre 8 y 72 caracteres.',
  mismatch: 'Las contraseñas no coinciden',
  submit: 'Cambiar contraseña y entrar',
  submitting: 'Guardando…',
  back: 'Volver al inicio de sesión',
} as const;

/** sonner's screen-reader texts (the toasts region and each toast's close button). */
export const UI_TOASTER = {
  region: 'Avisos (Alt+T)',
  close: 'Cerrar aviso',
} as const;

export const UI_HEADER = {
  nav: 'Vistas',
  newTask: 'Nueva Tarea',
  approveUsers: (n: number) => `Aprobar Usuarios (${n})`,
  logout: 'Cerrar sesión',
  notifications: 'Notificaciones',
  unreadNotifications: (n: number) => `${n} notificación(es) sin leer`,
  noNotifications: 'No tienes notificaciones sin leer',
  markRead: 'Marcar como leída',
  markReadError: 'No se pudo marcar la notificación como leída',
  mute: 'Silenciar avisos sonoros',
  unmute: 'Activar avisos sonoros',
  userMenu: 'Menú de usuario',
  linkOnline: 'En vivo',
  linkReconnecting: 'Reconectando…',
  linkConnecting: 'Conectando…',
  linkOnlineHint: 'Conectado: los cambios llegan al instante',
  linkReconnectingHint: 'Sin conexión en tiempo real: los datos se actualizan periódicamente',
  validatingSession: 'Comprobando tu sesión…',
} as const;

/** SPEC §2 'Aprobar Usuarios Pendientes'. */
export const UI_APPROVAL = {
  title: 'Aprobar Usuarios Pendientes',
  // SPEC's `usuario(s)`, written as the plural it stands for (issue 28).
  count: (n: number) => `Hay ${plural(n, 'usuario', 'usuarios')} esperando aprobación`,
  approve: 'Aprobar',
  reject: 'Rechazar',
  /** Rejecting deletes the registration: asked first. */
  rejectConfirm: {
    title: 'Rechazar solicitud',
    message: (name: string, email: string) =>
      `Se rechazará la solicitud de ${name} (${email}) y se eliminará su registro. Si quiere acceder, tendrá que registrarse de nuevo.`,
    confirm: 'Rechazar',
  },
  registered: 'Registrado',
  emptyTitle: 'No hay usuarios pendientes',
  emptyHint: 'Todos los registros han sido procesados',
  close: 'Cerrar',
} as const;

/** SPEC §8: success texts and the fallbacks shown when an error carries no server detail. */
export const TOAST = {
  loginOk: '¡Sesión iniciada con éxito!',
  registerOk: '¡Cuenta creada exitosamente!',
  registerPending: 'Cuenta creada. Esperando aprobación del administrador.',
  loginError: 'Error al iniciar sesión',
  registerError: 'Error al crear cuenta',
  pendingApproval: 'Tu cuenta está pendiente de aprobación por el administrador',
  newTaskAssigned: 'Nueva tarea asignada',

  loadSwapError: 'Error al cargar tareas Swap disponibles',
  loadActiveTaskError: 'Error al cargar tarea activa',
  loadAnalyticsError: 'Error al cargar analytics de conductores',
  loadDataError: 'Error al cargar los datos',
  loadTimeControlError: 'Error al cargar control de conductores',
  loadUsersError: 'Error al cargar usuarios',
  loadDbStatusError: 'Error al cargar estado de BD',
  loadHealthError: 'Error al cargar health check',
  loadLogsError: 'Error al cargar logs',

  selfAssignError: 'Error al auto-asignarse la tarea',
  completeError: 'Error al completar la tarea',
  returnError: 'Error al devolver la tarea',
  resetRankingsError: 'Error al reiniciar rankings',
  exportAnalyticsError: 'Error al exportar analytics a Excel',
  punchInError: 'Error al fichar entrada',
  punchOutError: 'Error al fichar salida',
  searchError: 'Error al buscar tareas',
  exportError: 'Error al exportar a Excel',
  reportError: 'Error al generar informe',
  deleteUserError: 'Error al eliminar usuario',
  changeRoleError: 'Error al cambiar rol',
  taskTypesError: 'Error al actualizar tipos de tareas',
  migrationsError: 'Error al ejecutar migraciones',
  clearTokensError: 'Error al limpiar tokens',
  approvalError: 'Error al procesar aprobación',
  updateTaskError: 'Error al actualizar tarea',
  deleteTaskError: 'Error al eliminar tarea',
  createTaskError: 'Error al crear tarea',
  editUserError: 'Error al actualizar usuario',
  loadSessionsError: 'Error al cargar sesiones',
  endSessionError: 'Error al cerrar sesión',
  resetPasswordError: 'Error al restablecer contraseña',
  changePasswordError: 'Error al cambiar contraseña',
  copyError: 'No se pudo copiar: selecciona el texto y cópialo a mano',

  punchAt: (time: string) => `Registrado a las ${time}`,
  selfAssigned: 'Te has asignado esta tarea',
  returnedToPool: 'Tarea devuelta a bolsa de trabajo',
  analyticsDownloaded: 'Informe Analytics descargado exitosamente',
  excelDownloaded: 'Informe Excel descargado exitosamente',
  reportGenerated: (n: number) => `Informe generado: ${n} incidentes encontrados`,
  searchFound: (n: number) => `Se encontraron ${n} tareas`,
  searchNone: 'No se encontraron tareas con ese criterio',
  taskUpdated: 'Tarea actualizada exitosamente',
  taskDeleted: 'Tarea eliminada exitosamente',
  taskCreated: 'Tarea creada exitosamente',
  passwordChanged: 'Contraseña cambiada. ¡Sesión iniciada con éxito!',
  copied: 'Copiada al portapapeles',
} as const;
