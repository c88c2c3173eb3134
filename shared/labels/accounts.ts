// Spanish texts of accounts, the time clock and the dashboard figures: answers, notifications,
// activity-log rows and the workload alert (CONTRACT §4, §6, §7, §10).
import type { ClockType, Role } from '../enums';
import { ROLE_LABELS, plural } from './common';

/** The approval modal's request text (CONTRACT §4). */
export const requestText = (role: Role): string => `Solicita acceso como ${ROLE_LABELS[role]}`;

/** `{message}` answers of the accounts endpoints. */
export const ACCOUNT_MSG = {
  loggedOut: 'Sesión cerrada',
  approved: (name: string) => `Usuario ${name} aprobado`,
  rejected: (name: string) => `Solicitud de ${name} rechazada`,
  roleChanged: (name: string, role: Role) => `Rol de ${name} cambiado a ${ROLE_LABELS[role]}`,
  roleUnchanged: (name: string, role: Role) => `${name} ya tiene el rol ${ROLE_LABELS[role]}`,
  taskTypesUpdated: (name: string) => `Tipos de tarea de ${name} actualizados`,
  deleted: (name: string) => `Usuario ${name} eliminado`,
  sessionEnded: 'Sesión cerrada en ese dispositivo',
} as const;

export const PENDING_NOTIFICATION = {
  title: 'Nuevo usuario pendiente',
  message: (name: string, email: string, role: Role) =>
    `${name} (${email}) solicita acceso como ${ROLE_LABELS[role]}`,
} as const;

export const PUNCH_MSG: Record<ClockType, string> = {
  entrada: 'Entrada registrada correctamente',
  salida: 'Salida registrada correctamente',
};

/** Activity-log rows `{action, details}` (CONTRACT §10). */
export const ACCOUNT_LOG = {
  register: {
    action: 'Registrarse',
    details: (name: string, email: string, role: Role) =>
      `${name} (${email}) se registró como ${ROLE_LABELS[role]} y espera aprobación`,
  },
  login: { action: 'Iniciar sesión', details: (name: string) => `${name} inició sesión` },
  logout: { action: 'Cerrar sesión', details: (name: string) => `${name} cerró sesión` },
  endSession: {
    action: 'Cerrar sesión de otro usuario',
    details: (name: string, device: string) => `Se cerró una sesión de ${name} (${device})`,
  },
  resetPassword: {
    action: 'Restablecer contraseña',
    details: (name: string) =>
      `Se restableció la contraseña de ${name}: deberá cambiarla al iniciar sesión y sus sesiones se cerraron`,
  },
  changePassword: { action: 'Cambiar contraseña', details: (name: string) => `${name} cambió su contraseña` },
  editUser: {
    action: 'Editar usuario',
    details: (before: string, name: string, email: string) =>
      `Datos de ${before} actualizados: ${name} (${email})`,
  },
  approve: {
    action: 'Aprobar usuario',
    details: (name: string, email: string, role: Role) =>
      `Se aprobó la cuenta de ${name} (${email}) como ${ROLE_LABELS[role]}`,
  },
  reject: {
    action: 'Rechazar usuario',
    details: (name: string, email: string) => `Se rechazó y eliminó la solicitud de ${name} (${email})`,
  },
  role: {
    action: 'Cambiar rol',
    details: (name: string, from: Role, to: Role) =>
      `El rol de ${name} pasó de ${ROLE_LABELS[from]} a ${ROLE_LABELS[to]}`,
  },
  taskTypes: {
    action: 'Cambiar tipos de tarea',
    details: (name: string, types: string) => `Tipos de tarea de ${name}: ${types}`,
  },
  delete: {
    action: 'Eliminar usuario',
    details: (name: string, email: string) => `Se eliminó la cuenta de ${name} (${email})`,
  },
  punch: {
    action: { entrada: 'Fichar entrada', salida: 'Fichar salida' } as Record<ClockType, string>,
    details: (name: string, clockType: ClockType, time: string) =>
      `${name} fichó la ${clockType} a las ${time}`,
  },
} as const;

/** The dashboard's workload alert (CONTRACT §6): a message and 2–4 recommendations per level. */
export const WORKLOAD = {
  critical: {
    message: (pending: number) =>
      `${plural(pending, 'tarea espera', 'tareas esperan')} en la bolsa y no hay ningún conductor disponible`,
    recommendations: [
      'Pide a los conductores en turno que fichen la entrada y abran la aplicación',
      'Asigna a mano las tareas de prioridad alta desde el tablero',
      'Revisa si algún conductor ocupado puede terminar pronto su tarea',
      'Valora llamar a conductores de refuerzo',
    ],
  },
  warning: {
    message: (pending: number, available: number, utilization: number) =>
      `Carga de trabajo alta: ${plural(pending, 'tarea pendiente', 'tareas pendientes')} para ${plural(
        available,
        'conductor disponible',
        'conductores disponibles',
      )} (utilización ${utilization}%)`,
    recommendations: [
      'Prioriza las tareas de prioridad alta',
      'Comprueba que todos los conductores en turno hayan fichado la entrada',
      'Revisa los tipos de tarea habilitados de los conductores disponibles',
    ],
  },
  normal: {
    message: 'La carga de trabajo está equilibrada',
    recommendations: [
      'Mantén la bolsa de trabajo al día',
      'Revisa el ranking de conductores para repartir el trabajo',
    ],
  },
} as const;
