// Parsing request parts with the shared zod schemas; a failure becomes a 400 with a Spanish detail.
import type { Request } from 'express';
import type { z } from 'zod';
import { idParams } from '@shared/schemas';

export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.output<S> =>
  schema.parse(req.body ?? {});
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.output<S> =>
  schema.parse(req.query);
export const parseId = (req: Request): string => idParams.parse(req.params).id;
