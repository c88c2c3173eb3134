// Checks a real answer against what /api/openapi.json documents for it (CONTRACT §21: "real answers match
// it"): the operation's response schema for that status, validated with ajv's JSON Schema 2020-12 (the
// dialect of OpenAPI 3.1). Any API test may use it: `expectDocumented('get', '/tasks/{id}', res)`.
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Response } from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from '../../server/openapi/document';

// ajv 8 is the validator's own dependency (the top-level ajv is an older major): load it from there.
const fromValidator = createRequire(import.meta.resolve('@seriousme/openapi-schema-validator'));
interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown;
}
interface Ajv {
  compile(schema: object): ValidateFunction;
  errorsText(errors?: unknown): string;
}
const { default: Ajv2020 } = fromValidator('ajv/dist/2020.js') as { default: new (options: object) => Ajv };
const { default: addFormats } = fromValidator('ajv-formats') as { default: (ajv: Ajv) => void };

type Method = 'get' | 'post' | 'put' | 'delete';
interface MediaType {
  schema?: object;
}
interface DocOperation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

/** The document validated against the OpenAPI schema, and with its $refs resolved. */
export async function validatedDocument() {
  const validator = new Validator();
  const result = await validator.validate(
    structuredClone(openApiDocument) as unknown as Record<string, unknown>,
  );
  return { result, resolved: validator.resolveRefs() as unknown as typeof openApiDocument };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
let resolvedPaths: Record<string, Partial<Record<Method, DocOperation>>> | undefined;

/** The JSON schema the document gives for an operation's answer with this status. */
export async function documentedSchema(method: Method, path: string, status: number): Promise<object> {
  resolvedPaths ??= (await validatedDocument()).resolved.paths as typeof resolvedPaths;
  const operation = resolvedPaths?.[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} no está en el documento`).toBeDefined();
  const schema = operation?.responses[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `${method.toUpperCase()} ${path} no documenta un ${status} JSON`).toBeDefined();
  return schema as object;
}

/** The real answer is one the document describes for that operation and status. */
export async function expectDocumented(method: Method, path: string, res: Response): Promise<void> {
  const validate = ajv.compile(await documentedSchema(method, path, res.status));
  expect(res.type).toBe('application/json');
  const valid = validate(res.body);
  expect(valid, `${method.toUpperCase()} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(
    true,
  );
}
