// The OpenAPI 3.1 document (CONTRACT §21 "OpenAPI"): every route an API key may call, built once from the
// shared zod schemas the routes validate with and the answers are typed by, so neither can drift from it.
// The routes are exactly those of the actions in API_SCOPE; each says the scope it needs.
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { API_DOC } from '@shared/labels';
import {
  createTaskSchema,
  errorResponseSchema,
  gateEntryResultSchema,
  gateEntrySchema,
  gateExitResultSchema,
  gateExitSchema,
  gatePhotoCreatedSchema,
  gateSuggestionSchema,
  gateSuggestionsQuerySchema,
  gateVisitListSchema,
  gateVisitsQuerySchema,
  idParams,
  locationSchema,
  messageResponseSchema,
  searchQuerySchema,
  searchTaskSchema,
  taskListQuerySchema,
  taskSchema,
  trailerDetailSchema,
  trailerIdParams,
  trailerListSchema,
  trailerSearchSchema,
  updateTaskSchema,
  yardLocationSchema,
  yardTrailerSchema,
} from '@shared/schemas';
import { API_SCOPE, type Action } from '../policies';

const JSON_TYPE = 'application/json';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const json = (schema: z.ZodType) => ({ content: { [JSON_TYPE]: { schema } } });

/** CONTRACT §21 "Rate": every answer to a key carries these. */
const rateLimitHeaders = z.object({
  'RateLimit-Limit': z.number().int().meta({ description: API_DOC.headers.rateLimit }),
  'RateLimit-Remaining': z.number().int().meta({ description: API_DOC.headers.rateRemaining }),
  'RateLimit-Reset': z.number().int().meta({ description: API_DOC.headers.rateReset }),
});

const answer = (description: string, schema: z.ZodType) => ({
  description,
  headers: rateLimitHeaders,
  ...json(schema),
});
const refusal = (description: string) => ({ description, ...json(errorResponseSchema) });

/** What any key operation may answer besides its own: no valid key, a missing scope, too many requests. */
const KEY_REFUSALS: ZodOpenApiResponsesObject = {
  '401': refusal(API_DOC.responses.unauthorized),
  '403': refusal(API_DOC.responses.forbidden),
  '429': {
    description: API_DOC.responses.tooMany,
    headers: rateLimitHeaders.extend({
      'Retry-After': z.number().int().meta({ description: API_DOC.headers.retryAfter }),
    }),
    ...json(errorResponseSchema),
  },
};
const BAD_REQUEST = { '400': refusal(API_DOC.responses.badRequest) };
const NOT_FOUND = { '404': refusal(API_DOC.responses.notFound) };
const CONFLICT = { '409': refusal(API_DOC.responses.conflict) };

/** CONTRACT §16, §23: an authenticated POST honours an Idempotency-Key. */
const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().optional().meta({ description: API_DOC.headers.idempotencyKey }),
});

type OperationId = keyof typeof API_DOC.ops;
type Operation = Pick<ZodOpenApiOperationObject, 'requestParams' | 'requestBody' | 'responses'>;

/**
 * An operation a key may call: its texts (API_DOC.ops by its id), its scope (from API_SCOPE, the key's own
 * gate) and the refusals of a key.
 */
function keyOperation(
  action: Action,
  operationId: OperationId,
  tag: string,
  op: Operation,
): ZodOpenApiOperationObject {
  const scope = API_SCOPE[action];
  if (!scope) throw new Error(`La acción ${action} no es de una clave de API`);
  const { summary, description } = API_DOC.ops[operationId];
  return {
    ...op,
    operationId,
    tags: [tag],
    summary,
    description: `${description}\n\n${API_DOC.scopeNote(scope)}`,
    // OpenAPI 3.1 lets a non-OAuth scheme list the roles it needs: the scope, also as `x-scopes`.
    security: [{ bearerAuth: [scope] }],
    'x-scopes': [scope],
    'x-action': action,
    responses: { ...op.responses, ...KEY_REFUSALS },
  };
}

const { tags, ops } = API_DOC;

const paths: ZodOpenApiPathsObject = {
  '/tasks': {
    get: keyOperation('tasks:read', 'listTasks', tags.tasks, {
      requestParams: {
        query: taskListQuerySchema.extend({
          external_ref: taskListQuerySchema.shape.external_ref.meta({
            description: API_DOC.params.externalRef,
          }),
        }),
      },
      responses: { '200': answer(ops.listTasks.ok, z.array(taskSchema)), ...BAD_REQUEST },
    }),
    post: keyOperation('tasks:create', 'createTask', tags.tasks, {
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, ...json(createTaskSchema) },
      responses: {
        '201': answer(ops.createTask.created, taskSchema),
        '200': answer(ops.createTask.repeated, taskSchema),
        ...BAD_REQUEST,
        ...CONFLICT,
      },
    }),
  },
  '/tasks/{id}': {
    get: keyOperation('tasks:read', 'getTask', tags.tasks, {
      requestParams: { path: idParams },
      responses: { '200': answer(ops.getTask.ok, taskSchema), ...BAD_REQUEST, ...NOT_FOUND },
    }),
    put: keyOperation('tasks:update', 'updateTask', tags.tasks, {
      requestParams: { path: idParams },
      requestBody: { required: true, ...json(updateTaskSchema) },
      responses: { '200': answer(ops.updateTask.ok, taskSchema), ...BAD_REQUEST, ...NOT_FOUND, ...CONFLICT },
    }),
    delete: keyOperation('tasks:delete', 'deleteTask', tags.tasks, {
      requestParams: { path: idParams },
      responses: {
        '200': answer(ops.deleteTask.ok, messageResponseSchema),
        ...BAD_REQUEST,
        ...NOT_FOUND,
        ...CONFLICT,
      },
    }),
  },
  '/admin/search/tasks': {
    get: keyOperation('tasks:search', 'searchTasks', tags.tasks, {
      requestParams: { query: searchQuerySchema },
      responses: { '200': answer(ops.searchTasks.ok, z.array(searchTaskSchema)), ...BAD_REQUEST },
    }),
  },
  '/yard': {
    get: keyOperation('yard:read', 'getYard', tags.yard, {
      responses: { '200': answer(ops.getYard.ok, z.array(yardLocationSchema)) },
    }),
  },
  '/yard/trailers': {
    get: keyOperation('yard:read', 'listYardTrailers', tags.yard, {
      responses: { '200': answer(ops.listYardTrailers.ok, z.array(yardTrailerSchema)) },
    }),
  },
  '/yard/trailers/export-excel': {
    get: keyOperation('yard:read', 'exportYardTrailers', tags.yard, {
      responses: {
        '200': {
          description: API_DOC.responses.excel,
          headers: rateLimitHeaders,
          content: { [XLSX_TYPE]: { schema: { type: 'string', contentMediaType: XLSX_TYPE } } },
        },
      },
    }),
  },
  '/locations': {
    get: keyOperation('locations:read', 'listLocations', tags.yard, {
      responses: { '200': answer(ops.listLocations.ok, z.array(locationSchema)) },
    }),
  },
  '/trailers': {
    get: keyOperation('trailers:read', 'searchTrailers', tags.trailers, {
      requestParams: { query: trailerSearchSchema },
      responses: { '200': answer(ops.searchTrailers.ok, trailerListSchema), ...BAD_REQUEST },
    }),
  },
  '/trailers/{trailer_id}': {
    get: keyOperation('trailers:read', 'getTrailer', tags.trailers, {
      requestParams: { path: trailerIdParams },
      responses: { '200': answer(ops.getTrailer.ok, trailerDetailSchema), ...BAD_REQUEST, ...NOT_FOUND },
    }),
  },
  '/gate/visits': {
    get: keyOperation('gate:read', 'listGateVisits', tags.gate, {
      requestParams: { query: gateVisitsQuerySchema },
      responses: { '200': answer(ops.listGateVisits.ok, gateVisitListSchema), ...BAD_REQUEST },
    }),
  },
  '/gate/suggestions': {
    get: keyOperation('gate:read', 'gateSuggestions', tags.gate, {
      requestParams: { query: gateSuggestionsQuerySchema },
      responses: { '200': answer(ops.gateSuggestions.ok, z.array(gateSuggestionSchema)), ...BAD_REQUEST },
    }),
  },
  '/gate/entries': {
    post: keyOperation('gate:write', 'enterGate', tags.gate, {
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, ...json(gateEntrySchema) },
      responses: {
        '201': answer(ops.enterGate.created, gateEntryResultSchema),
        ...BAD_REQUEST,
        ...NOT_FOUND,
        ...CONFLICT,
      },
    }),
  },
  '/gate/exits': {
    post: keyOperation('gate:write', 'exitGate', tags.gate, {
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, ...json(gateExitSchema) },
      responses: {
        '200': answer(ops.exitGate.ok, gateExitResultSchema),
        ...BAD_REQUEST,
        ...NOT_FOUND,
        ...CONFLICT,
      },
    }),
  },
  '/gate/photos': {
    post: keyOperation('gate:photos:upload', 'uploadGatePhoto', tags.gate, {
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({ photo: z.string().meta({ override: { contentMediaType: 'image/*' } }) }),
          },
        },
      },
      responses: {
        '201': answer(ops.uploadGatePhoto.created, gatePhotoCreatedSchema),
        ...BAD_REQUEST,
        '413': refusal(API_DOC.responses.tooLarge),
      },
    }),
  },
};

/** The document, built once (GET /api/openapi.json). */
export const openApiDocument = createDocument({
  openapi: '3.1.0',
  info: { title: API_DOC.title, version: '1.0.0', description: API_DOC.description },
  servers: [{ url: '/api' }],
  tags: Object.values(tags).map((name) => ({ name })),
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: API_DOC.bearer },
    },
  },
  paths,
});
