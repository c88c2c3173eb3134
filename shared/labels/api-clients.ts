// Spanish texts of API clients (CONTRACT §21 "API clients", "Scopes"): the key's refusals, its name as an
// actor, the activity-log rows and Sistema → Integraciones › Claves de API.
import type { ApiScope } from '../enums';

/** What a key acts as: a task's created_by_name, the activity log's user. */
export const apiClientActor = (name: string): string => `API · ${name}`;

export const API_CLIENT_ERR = {
  duplicateName: 'Ya existe una integración con ese nombre',
  notFound: 'Integración no encontrada',
  invalidKey: 'Clave de API no válida',
  noAdmin: 'Esta clave no tiene acceso a la administración',
  missingScope: (scope: ApiScope) => `Esta clave no tiene permiso para ${scope}`,
  /** An action no scope grants (CONTRACT §21 lists what a key may call; docs/DECISIONS.md "API keys"). */
  notForKeys: 'Esta operación no está disponible con una clave de API',
  tooManyRequests: (seconds: number) => `Demasiadas peticiones con esta clave; espera ${seconds} s`,
  nameRequired: 'El nombre es obligatorio',
  nameTooLong: (max: number) => `El nombre admite como máximo ${max} caracteres`,
  scopesRequired: 'Elige al menos un permiso',
  scopeInvalid: 'Permiso no válido',
};

/** What each scope lets a key do, as the create dialog and the list show it. */
export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'tasks:read': 'Leer tareas',
  'tasks:write': 'Crear, editar y borrar tareas',
  'yard:read': 'Leer patio, remolques, ubicaciones y visitas',
  'gate:write': 'Registrar entradas y salidas de portería',
};

export const API_CLIENT_LOG = {
  created: 'Clave de API creada',
  revoked: 'Clave de API revocada',
  details: (name: string, scopes: readonly ApiScope[]) => `${name} (${scopes.join(', ')})`,
};

/** Sistema → Integraciones. */
export const UI_INTEGRATIONS = {
  tab: 'Integraciones',
  systemTab: 'Estado',
  keys: {
    title: 'Claves de API',
    subtitle:
      'Otros sistemas (WMS, TMS) llaman a la API con una clave; actúan como un Manager llamado «API · nombre», solo con los permisos que elijas.',
    create: 'Nueva clave',
    empty: 'Aún no hay claves de API',
    loadError: 'No se pudieron cargar las claves de API',
    columns: {
      name: 'Nombre',
      prefix: 'Clave',
      scopes: 'Permisos',
      createdBy: 'Creada por',
      lastUsed: 'Último uso',
    },
    neverUsed: 'Nunca',
    revoke: 'Revocar',
    revokeTitle: 'Revocar la clave',
    revokeMessage: (name: string) =>
      `La clave «${name}» dejará de funcionar al instante en todos los servidores. No se puede deshacer.`,
    revoked: 'Clave revocada',
    revokeError: 'No se pudo revocar la clave',
  },
  createDialog: {
    title: 'Nueva clave de API',
    name: 'Nombre de la integración',
    namePlaceholder: 'p. ej. WMS almacén central',
    scopes: 'Permisos',
    submit: 'Crear clave',
    error: 'No se pudo crear la clave',
  },
  keyShown: {
    title: 'Copia la clave ahora',
    warning: 'Esta clave no se volverá a mostrar. Guárdala en un lugar seguro.',
  },
  /** A secret shown once (a key, a webhook's secret). */
  shownOnce: {
    copy: 'Copiar',
    copied: 'Copiado',
    copyError: 'No se pudo copiar; selecciónalo y cópialo a mano',
    done: 'Hecho',
  },
};
