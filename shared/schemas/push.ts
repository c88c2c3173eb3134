import { z } from 'zod';
import { PUSH_INPUT } from '../labels/push';

/** The longest push-service endpoint accepted (CONTRACT §16). */
export const PUSH_ENDPOINT_MAX = 1000;

/**
 * A URL. Which ones the server sends to (https, a browser's push service: CONTRACT §23) it judges itself
 * with its PUSH_ALLOWED_HOSTS, answering `Servicio de avisos no admitido` (server/services/push.ts).
 */
const endpoint = z
  .string({ error: PUSH_INPUT.endpoint })
  .max(PUSH_ENDPOINT_MAX, PUSH_INPUT.endpointTooLong(PUSH_ENDPOINT_MAX))
  .refine((s) => URL.canParse(s) && !/\s/.test(s), PUSH_INPUT.endpoint);

// RFC 8291: the browser's P-256 public key, uncompressed (65 bytes, first 0x04 → "B…", 87 characters
// of base64url), and its 16-byte authentication secret (22 characters); padding is tolerated.
const p256dh = z.string({ error: PUSH_INPUT.p256dh }).regex(/^B[A-Za-z0-9_-]{86}=?$/, PUSH_INPUT.p256dh);
const auth = z.string({ error: PUSH_INPUT.auth }).regex(/^[A-Za-z0-9_-]{22}(==)?$/, PUSH_INPUT.auth);

/** `POST /push/subscriptions`: a PushSubscription's toJSON() (expirationTime and the rest ignored). */
export const pushSubscriptionSchema = z.object({
  endpoint,
  keys: z.object({ p256dh, auth }, { error: PUSH_INPUT.keysRequired }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** `DELETE /push/subscriptions`. */
export const pushUnsubscribeSchema = z.object({ endpoint });
export type PushUnsubscribeInput = z.infer<typeof pushUnsubscribeSchema>;

export interface PushPublicKey {
  /** The VAPID public key (uncompressed P-256, base64url): the applicationServerKey of subscribe(). */
  public_key: string;
}

/** The JSON a Web Push carries (CONTRACT §16); the service worker shows title and body. */
export interface PushPayload {
  type: 'task_assigned' | 'task_closed_by_staff' | 'task_escalated';
  task_id: string | null;
  title: string;
  body: string;
}
