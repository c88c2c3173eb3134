// Spanish texts of the live board (SPEC §2 Dashboard view and Create-task modal, CONTRACT §5–§6).
// Column titles, empty texts and badges are the shared enum labels of common.ts; toasts are `TOAST`.

import { TRAILER_DAMAGE } from './trailers';

export const UI_BOARD = {
  stats: {
    label: 'Resumen del patio',
    pool: 'Bolsa de Trabajo',
    inProgress: 'En Proceso',
    finished: 'Finalizadas (24 h)',
    available: 'Conductores Disponibles',
    availableOf: (online: number) => `de ${online} online`,
    busy: 'Conductores Ocupados',
    /** Busy drivers split by connection, so the figures add up with `de N online` (issue 28). */
    busyOnline: (online: number, offline: number) => `${online} online · ${offline} sin conexión`,
    pendingUsers: 'Usuarios Pendientes',
  },
  alert: {
    critical: 'Alerta crítica de carga de trabajo',
    warning: 'Aviso de carga de trabajo',
    pendingTasks: 'Tareas pendientes',
    availableDrivers: 'Conductores disponibles',
    busyDrivers: 'Conductores ocupados',
    utilization: 'Utilización de conductores',
    recommendations: 'Recomendaciones',
    /** How long the shown status has held (CONTRACT §15: it shows once it is 60 s old). */
    since: (duration: string) => `Desde hace ${duration}`,
  },
  /** CONTRACT §15: pending users as one line on the dashboard. */
  pending: {
    line: (n: number) => `${n} ${n === 1 ? 'usuario pendiente' : 'usuarios pendientes'}`,
    review: 'Revisar',
  },
  kanban: {
    label: 'Tablero de tareas',
    count: (n: number) => `${n} ${n === 1 ? 'tarea' : 'tareas'}`,
    tabs: 'Columnas del tablero',
    /** The Finalizada column holds the last 24 h (CONTRACT §5 GET /tasks). */
    finishedWindow: 'últimas 24 h',
  },
  /** @hello-pangea/dnd's screen-reader texts, in Spanish. */
  dnd: {
    instructions:
      'Pulsa Espacio para levantar la tarjeta. Mientras la arrastras, usa las flechas para moverla entre columnas, Espacio para soltarla y Escape para cancelar.',
    lifted: (task: string, column: string) =>
      `Has levantado la tarjeta ${task} de ${column}. Usa las flechas para moverla, Espacio para soltarla y Escape para cancelar.`,
    over: (column: string, position: number) => `Sobre ${column}, posición ${position}`,
    noTarget: 'Fuera de las columnas: al soltarla volverá a su sitio',
    dropped: (task: string, column: string) => `Tarjeta ${task} soltada en ${column}`,
    cancelled: (task: string, column: string) => `Movimiento cancelado: ${task} vuelve a ${column}`,
  },
  card: {
    trailer: 'Remolque',
    assignedTo: 'Asignado a',
    createdBy: 'Creado por',
    unassigned: 'Sin asignar',
    unknownCreator: 'Desconocido',
    timeInState: 'Tiempo en el estado actual',
    finishedAt: (time: string) => `Finalizada ${time}`,
    returnReason: 'Motivo de devolución',
    /** CONTRACT §15 hold (the card's 'Retenida: {reason}' is the shared UI_ATTENTION.held). */
    hold: 'Retener',
    release: 'Liberar',
    /** 'Asignarme' on a held task: disabled, saying why. */
    claimHeld: (reason: string | null) =>
      reason ? `No se puede asignar: retenida (${reason})` : 'No se puede asignar: tarea retenida',
    offlineSince: (duration: string) => `Sin conexión desde hace ${duration}`,
    actions: 'Acciones de la tarea',
    edit: 'Editar',
    delete: 'Eliminar',
    reassign: 'Reasignar',
    selfAssign: 'Asignarme',
    giveBack: 'Devolver',
    /** The keys of a focused card (docs/DECISIONS.md: one Tab stop a card). */
    keysHint:
      'Intro: acciones de la tarea (flechas para elegir, Esc para volver). Flechas: otra tarjeta o columna. Espacio: levantar la tarjeta para moverla',
    dragHint:
      'Pulsa Espacio para levantar la tarjeta, las flechas para moverla entre columnas y Espacio para soltarla',
  },
  /** CONTRACT §15 hold: 'Retener' asks an optional reason. */
  holdConfirm: {
    title: '¿Retener la tarea?',
    message: (task: string) => `${task} se quedará en la bolsa sin asignarse a nadie hasta que la liberes.`,
    reason: 'Motivo (opcional)',
    reasonPlaceholder: 'Ej. Remolque dañado, esperando taller',
    confirm: 'Retener',
  },
  /** CONTRACT §15: staff dropping a driver's En Proceso task on Finalizada confirm first. */
  finishConfirm: {
    title: (driver: string) => `¿Finalizar la tarea de ${driver}?`,
    message: (task: string, driver: string) =>
      `${task} se dará por terminada y contará como movimiento de ${driver}. Su teléfono recibirá el aviso de que la torre la ha finalizado.`,
    confirm: 'Finalizar tarea',
  },
  /**
   * A held pool task moved by staff says the hold first: CONTRACT §19's question for a damage hold (assign,
   * release, finish), the staff hold's reason before the driver picker (issue 28).
   */
  heldConfirm: {
    damageTitle: TRAILER_DAMAGE.mark,
    damage: TRAILER_DAMAGE.confirmMove,
    move: 'Mover igualmente',
    release: 'Liberar igualmente',
    title: 'Tarea retenida',
    held: (reason: string | null) =>
      reason
        ? `La tarea está retenida: ${reason}. ¿Asignarla igualmente?`
        : 'La tarea está retenida. ¿Asignarla igualmente?',
    assign: 'Asignar igualmente',
  },
  deleteConfirm: {
    title: '¿Eliminar la tarea?',
    message: (task: string) =>
      `${task} saldrá del tablero. Su historial se conserva en el buscador y los informes.`,
    confirm: 'Eliminar',
  },
  picker: {
    title: 'Asignar conductor',
    description: (task: string) => `Elige quién hará ${task}. Los conductores ocupados no se pueden elegir.`,
    loading: 'Cargando conductores…',
    loadError: 'Error al cargar conductores',
    empty: 'No hay conductores con este tipo de tarea habilitado',
    emptyHint: 'Un administrador puede habilitarlo en Usuarios → Tareas.',
    available: 'Disponible',
    busy: 'Ocupado',
    current: 'Asignado ahora',
    notClockedIn: 'Sin fichar',
    offline: 'Desconectado',
    movements: (n: number) => `${n} ${n === 1 ? 'movimiento' : 'movimientos'}`,
    confirm: 'Asignar',
  },
  form: {
    createTitle: 'Nueva Tarea',
    createDescription: 'Publica un movimiento en la bolsa de trabajo.',
    editTitle: 'Editar tarea',
    movement: 'Tipo de movimiento',
    movementPlaceholder: 'Selecciona Mover o Recolocar',
    origin: 'Origen',
    originPlaceholder: 'Ej. Muelle 3',
    destination: 'Destino',
    destinationPlaceholder: 'Ej. Campa Norte, plaza 12',
    trailer: 'Remolque (matrícula)',
    trailerPlaceholder: 'Ej. R-1234-BCD',
    description: 'Descripción (opcional)',
    descriptionPlaceholder: 'Indicaciones para el conductor',
    priority: 'Prioridad',
    vehicleType: 'Tipo de vehículo',
    /** CONTRACT §19: the trailer's load state once the move is completed; empty leaves it as it is. */
    loadStateAfter: 'Carga al terminar',
    loadStateUnchanged: 'Sin cambio',
    create: 'Crear Tarea',
    creating: 'Creando…',
    save: 'Guardar cambios',
    saving: 'Guardando…',
  },
  sidebar: {
    label: 'Panel lateral',
    adminTitle: 'Estado de Conductores',
    online: 'Online',
    available: 'Disponibles',
    busy: 'Ocupados',
    utilization: 'Utilización',
    queueTitle: 'Cola de Espera',
    queueEmpty: 'No hay tareas esperando',
    oldestWaiting: 'Espera más larga',
    onlineTitle: 'Conductores Online',
    onlineEmpty: 'No hay conductores online',
    onlineMore: (n: number) => `y ${n} más`,
    rankingTitle: 'Ranking de Conductores',
    rankingEmpty: 'No hay conductores registrados',
    movements: (n: number) => `${n} mov.`,
    isOnline: 'Online',
    isOffline: 'Offline',
  },
  banners: {
    label: 'Notificaciones sin leer',
    dismiss: 'Descartar notificación',
  },
  wall: {
    enter: 'Modo pantalla',
    enterHint: 'Tablero a pantalla completa para la pared de la sala de control',
  },
} as const;
