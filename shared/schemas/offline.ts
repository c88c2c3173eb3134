import { z } from 'zod';
import { ERR } from '../labels/errors';

// The inputs of the phone's offline actions (CONTRACT §16).

/** The `Idempotency-Key` header of an authenticated POST: a UUID. */
export const idempotencyKeySchema = z.string().uuid(ERR.idempotencyKeyInvalid);

/**
 * `client_time` of a queued complete, return or punch: when the driver acted (ISO with its offset). The
 * server uses it only when it is plausible (past, within 12 h, after the previous punch or assigned_at).
 */
export const clientTimeSchema = z.iso.datetime({ offset: true, error: ERR.clientTimeInvalid });
