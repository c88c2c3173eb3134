// The API reference's texts (CONTRACT §21 "OpenAPI"): what /api/openapi.json and /api/docs say.
import type { ApiScope } from '../enums';

export const API_DOC = {
  title: 'Torre de Control Line-Haul · API',
  description:
    'La API con la que otros sistemas (WMS, TMS) crean movimientos y leen el patio. Cada petición lleva ' +
    '`Authorization: Bearer trc_…` (una clave de API creada en Sistema → Integraciones) y cada operación ' +
    'dice el permiso (scope) que necesita la clave. Los errores son `{"detail": "…"}` en español. Cada ' +
    'respuesta a una clave lleva `RateLimit-Limit`, `RateLimit-Remaining` y `RateLimit-Reset`; pasado el ' +
    'límite, 429 con `Retry-After`.',
  pageTitle: 'Torre de Control · Referencia de la API',
  bearer: 'Clave de API (`trc_…`) o el token de una sesión de personal.',
  /** What each operation says of the scope it needs. */
  scopeNote: (scope: ApiScope) => `Permiso necesario de la clave: \`${scope}\`.`,
  tags: {
    tasks: 'Tareas',
    yard: 'Patio',
    trailers: 'Remolques',
    gate: 'Portería',
  },
  headers: {
    rateLimit: 'Peticiones por minuto que admite la clave.',
    rateRemaining: 'Peticiones que le quedan a la clave en este minuto.',
    rateReset: 'Segundos hasta que el límite se renueva.',
    retryAfter: 'Segundos que esperar antes de volver a llamar.',
    idempotencyKey:
      'Opcional: repetir la petición con la misma clave devuelve la misma respuesta sin repetirla.',
  },
  params: {
    externalRef:
      'Solo las tareas de quien llama con esta referencia externa, de cualquier estado y antigüedad.',
  },
  responses: {
    badRequest: 'Datos no válidos (el `detail` dice cuál).',
    unauthorized: 'Falta la clave o no es válida (p. ej. `Clave de API no válida`).',
    forbidden:
      'La clave no tiene el permiso necesario (p. ej. `Esta clave no tiene permiso para tasks:write`).',
    tooMany: 'Demasiadas peticiones con esta clave (`Demasiadas peticiones con esta clave; espera {n} s`).',
    notFound: 'No existe o quien llama no puede verlo.',
    conflict: 'Choca con el estado actual (otra tarea abierta del remolque, una versión antigua…).',
    excel: 'El libro Excel.',
    tooLarge: 'La foto pasa del tamaño máximo.',
  },
  /** Each operation by its operationId. */
  ops: {
    listTasks: {
      summary: 'Listar tareas',
      description:
        'El tablero: las tareas abiertas y las terminadas en las últimas 24 h; con `external_ref`, las de esa referencia.',
      ok: 'Las tareas.',
    },
    getTask: {
      summary: 'Leer una tarea',
      description: 'Una tarea tal como la muestra `GET /tasks`.',
      ok: 'La tarea.',
    },
    createTask: {
      summary: 'Crear una tarea',
      description:
        'Crea un movimiento. Si quien llama repite la `external_ref` de una tarea suya abierta (bolsa o en proceso), ' +
        'responde 200 con esa tarea sin cambiarla.',
      created: 'La tarea creada.',
      repeated: 'Ya había una tarea abierta con esta `external_ref`: esa tarea, sin cambios.',
    },
    updateTask: {
      summary: 'Modificar una tarea',
      description:
        'Cambia los campos dados; `version` es la versión de la que parte quien edita (otra → 409).',
      ok: 'La tarea modificada.',
    },
    deleteTask: { summary: 'Eliminar una tarea', description: 'Elimina una tarea.', ok: 'Confirmación.' },
    searchTasks: {
      summary: 'Buscar tareas',
      description:
        'El buscador: tareas de cualquier estado por texto y fechas, con la historia y dónde está el remolque.',
      ok: 'Las tareas encontradas.',
    },
    getYard: {
      summary: 'Mapa del patio',
      description: 'Las ubicaciones activas, sus remolques, lo que llega y el hueco libre.',
      ok: 'Las ubicaciones.',
    },
    listYardTrailers: {
      summary: 'Remolques en el patio',
      description: 'Cada remolque en el patio, dónde y desde cuándo.',
      ok: 'Los remolques.',
    },
    exportYardTrailers: {
      summary: 'Remolques en el patio (Excel)',
      description: 'Lo mismo que `GET /yard/trailers`, en un libro Excel.',
    },
    listLocations: {
      summary: 'Catálogo de ubicaciones',
      description: 'Todas las ubicaciones del patio.',
      ok: 'Las ubicaciones.',
    },
    searchTrailers: {
      summary: 'Buscar remolques',
      description: 'Las fichas de remolque cuya matrícula empieza por o contiene `q`.',
      ok: 'Los remolques.',
    },
    getTrailer: {
      summary: 'Ficha de un remolque',
      description: 'La ficha, su tarea abierta, sus últimos movimientos y sus visitas de portería.',
      ok: 'La ficha.',
    },
    listGateVisits: {
      summary: 'Visitas de portería',
      description: 'Las abiertas (`open=true`) o las de un día (`date`).',
      ok: 'Las visitas.',
    },
    gateSuggestions: {
      summary: 'Dónde dejar un remolque',
      description: 'Las ubicaciones con hueco para ese estado de carga y tipo, mejor primero.',
      ok: 'Las sugerencias.',
    },
    enterGate: {
      summary: 'Entrada de un camión',
      description: 'Registra la entrada; con remolque, lo deja en su ubicación.',
      created: 'La visita y la ficha del remolque dejado.',
    },
    exitGate: {
      summary: 'Salida de un camión',
      description: 'Cierra la visita; con remolque, lo saca del patio.',
      ok: 'La visita cerrada.',
    },
    uploadGatePhoto: {
      summary: 'Subir una foto de inspección',
      description:
        'Una imagen (campo `photo`, multipart); su `id` se da luego en la inspección de una entrada hecha con una clave del mismo cliente.',
      created: 'La foto guardada.',
    },
  },
} as const;
