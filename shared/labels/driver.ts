// Spanish texts of the driver's phone screen (SPEC §2 Driver screen, Swap panel, Control de Horario;
// CONTRACT §11). Toasts shared with other screens (SPEC §8) stay in ui.ts `TOAST`.

import { plural } from './common';

export const UI_DRIVER = {
  /** CONTRACT §16: the phone without a server — one indicator, the queue, refusals after a replay. */
  offline: {
    indicator: (pending: number) =>
      pending > 0
        ? `Sin conexión · ${plural(pending, 'acción pendiente', 'acciones pendientes')}`
        : 'Sin conexión',
    indicatorHint: 'Se muestra lo último que se sabía. Lo que hagas se guarda en el móvil y se enviará solo.',
    sending: (pending: number) => `Enviando ${plural(pending, 'acción pendiente', 'acciones pendientes')}…`,
    /** The toast of an action kept on the phone. */
    queued: 'Guardado en el móvil: se enviará al recuperar la conexión',
    completeLabel: (task: string) => `Completar ${task}`,
    returnLabel: (task: string) => `Devolver a bolsa ${task}`,
    punchLabel: (type: 'entrada' | 'salida') => (type === 'entrada' ? 'Fichar entrada' : 'Fichar salida'),
    refusedTitle: 'El servidor no aceptó una acción hecha sin conexión',
    /** The reason when the refusal carried none. */
    refusedFallback: 'El servidor la rechazó sin dar un motivo',
    refusedAt: (action: string, time: string) => `${action} (${time})`,
    dismiss: 'Entendido',
  },
  activeTask: {
    title: 'Mi Tarea Activa',
    inProgress: 'EN PROCESO',
    description: 'Descripción',
    origin: 'Origen',
    destination: 'Destino',
    trailer: 'Remolque',
    priority: 'Prioridad',
    createdBy: 'Creada por',
    assignedAt: 'Asignada',
    complete: 'Marcar como Completada',
    returnToPool: 'Devolver a Bolsa',
    noneTitle: 'Sin Tarea Asignada',
    noneHint: 'Las tareas Semiremolque se asignan automáticamente; las tareas Swap te las auto-asignas tú',
    loading: 'Cargando tu tarea…',
    /** CONTRACT §16: shown at the top of the screen (with the Entrada button) until the driver clocks in. */
    clockInPrompt: 'Ficha la entrada para recibir tareas',
    /** CONTRACT §15: a driver returned it before (kept until it is completed). */
    returnedBefore: (reason: string) => `Devuelta antes: ${reason}`,
  },
  completeConfirm: {
    title: '¿Marcar la tarea como completada?',
    message: (task: string) => `Confirma que has terminado: ${task}.`,
    confirm: 'Sí, completada',
  },
  returnConfirm: {
    title: '¿Devolver la tarea a la bolsa?',
    message: (task: string) => `${task} volverá a la bolsa de trabajo para otro conductor.`,
    reason: 'Motivo (opcional)',
    noReason: 'Sin motivo',
    confirm: 'Devolver a Bolsa',
  },
  status: {
    title: 'Mi Estado',
    online: 'Online',
    active: 'Activo',
    /** Instead of `Online` while the server does not answer (the offline indicator says what waits). */
    offline: 'Sin conexión',
  },
  timeclock: {
    title: 'Control de Horario',
    madridTime: 'Hora de Madrid',
    lastEntrada: 'Última entrada',
    lastSalida: 'Última salida',
    workedToday: 'Tiempo trabajado hoy',
    entrada: 'Entrada',
    salida: 'Salida',
    punchesToday: (n: number) => `Fichajes registrados hoy: ${n}`,
    loading: 'Cargando fichajes…',
  },
  swap: {
    title: 'Tareas Swap',
    count: (n: number) => `${n} disponibles`,
    selfAssign: 'Auto-asignarme esta tarea',
    note: 'Las tareas Swap requieren asignación manual',
    emptyTitle: 'No hay tareas Swap disponibles',
    emptyHint: 'Cuando se publique una tarea Swap aparecerá aquí al instante',
    createdBy: 'Creada por',
    origin: 'Origen',
    destination: 'Destino',
    trailer: 'Remolque',
    /** CONTRACT §16: why the claim buttons are disabled. */
    clockInFirst: 'Ficha la entrada antes de auto-asignarte una tarea Swap',
    holdingTask: 'Ya tienes una tarea activa: complétala o devuélvela antes de coger otra',
    offline: 'Sin conexión: las tareas Swap se cogen con el servidor al alcance',
    confirmTitle: '¿Auto-asignarte esta tarea?',
    confirmMessage: (task: string) => `${task} pasará a ser tu tarea activa.`,
    confirm: 'Sí, asignármela',
  },
  /** CONTRACT §16: the new-task alert, repeated until acknowledged, and audio the browser blocked. */
  alert: {
    acknowledge: 'Entendido',
    soundBlocked: 'Toca para activar el sonido',
  },
} as const;
