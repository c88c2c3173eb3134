import { z } from 'zod';
import { es } from 'zod/locales';

// Spanish messages for every validation failure (the `detail` of a 400).
z.config(es());
// The browser runs under a CSP without 'unsafe-eval': zod's `new Function` probe, though caught, would be
// reported as a violation there. The server keeps zod's faster compiled parsers.
z.config({ jitless: 'window' in globalThis });

export const idSchema = z.string().uuid('Identificador no válido');
export const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Fecha no válida (AAAA-MM-DD)')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'Fecha no válida (AAAA-MM-DD)');
/** Query-string booleans arrive as text. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const idParams = z.object({ id: idSchema });

/** A user-facing sentence from a zod error: the first issue, with the field it is about. */
export function zodDetail(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Datos no válidos';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Every refusal's body (CONTRACT §3): `{detail}`, a Spanish sentence the client shows as it is. */
export const errorResponseSchema = z.object({ detail: z.string() }).meta({ id: 'Error' });
export type ErrorResponse = z.output<typeof errorResponseSchema>;
