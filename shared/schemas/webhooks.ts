// CONTRACT §21 "Webhooks": what the admin routes take and answer, and the body every delivery carries.
import { z } from 'zod';
import { DESCRIPTION_MAX, WEBHOOK } from '../constants';
import { WEBHOOK_EVENTS, type WebhookDeliveryStatus, type WebhookEvent } from '../enums';
import { WEBHOOK_ERR } from '../labels/webhooks';
import { cleanText } from '../text';

/** An http(s) URL as the WHATWG parser writes it (whether its host may be sent to is the server's). */
const webhookUrl = z
  .string()
  .trim()
  .max(WEBHOOK.urlMax, WEBHOOK_ERR.urlTooLong(WEBHOOK.urlMax))
  .transform((text, ctx) => {
    try {
      const url = new URL(text);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return url.href;
    } catch {
      // not a URL: the issue below
    }
    ctx.addIssue({ code: 'custom', message: WEBHOOK_ERR.urlInvalid });
    return z.NEVER;
  });

/** The events subscribed to: at least one, each once (a repeated one is kept once). */
const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, WEBHOOK_ERR.eventInvalid))
  .min(1, WEBHOOK_ERR.eventsRequired)
  .transform((events) => [...new Set(events)]);

const description = z
  .string()
  .overwrite(cleanText)
  .max(DESCRIPTION_MAX, WEBHOOK_ERR.descriptionTooLong(DESCRIPTION_MAX))
  .nullish()
  .transform((v) => (v === undefined ? undefined : v || null));

/** POST /admin/webhooks. */
export const createWebhookSchema = z.object({ url: webhookUrl, events: webhookEvents, description });
export type CreateWebhookData = z.output<typeof createWebhookSchema>;

/** PUT /admin/webhooks/{id}: what is given changes. */
export const updateWebhookSchema = z
  .object({ url: webhookUrl, events: webhookEvents, active: z.boolean(), description })
  .partial()
  .refine((d) => Object.values(d).some((v) => v !== undefined), WEBHOOK_ERR.nothingToChange);
export type UpdateWebhookData = z.output<typeof updateWebhookSchema>;

/** POST /admin/webhooks/deliveries/{id}/retry: the delivery's serial id. */
export const deliveryIdParams = z.object({
  id: z.coerce.number().int().positive(WEBHOOK_ERR.deliveryNotFound),
});

/** A webhook as the admin routes answer it (the secret only when created or rotated). */
export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  active: boolean;
  created_at: string;
  updated_at: string;
  /** The first failure of the current run of failures, null while it succeeds. */
  failing_since: string | null;
  /** When it was deactivated after 24 h of failures. */
  disabled_at: string | null;
}

/** POST /admin/webhooks (201) and …/rotate-secret: the secret, shown this once. */
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

/** GET /admin/webhooks/{id}/deliveries: one row of the outbox. */
export interface WebhookDelivery {
  id: number;
  event_id: string;
  type: WebhookEvent;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** POST /admin/webhooks/{id}/test: how the `ping` went. */
export interface WebhookTestResult {
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** The body of every delivery (CONTRACT §21 "Events"): `data` is a snapshot at commit. */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent | 'ping';
  occurred_at: string;
  data: Record<string, unknown>;
}
