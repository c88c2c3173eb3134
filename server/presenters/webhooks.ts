// Webhook rows → the admin routes' shapes (CONTRACT §21). The secret only when it was just made.
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '@shared/schemas';
import type { webhookDeliveries, webhooks } from '../db/tables';

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const presentWebhook = (w: WebhookRow): Webhook => ({
  id: w.id,
  url: w.url,
  description: w.description,
  events: w.events,
  active: w.active,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
  failing_since: iso(w.failingSince),
  disabled_at: iso(w.disabledAt),
});

export const presentWebhookWithSecret = (w: WebhookRow): WebhookWithSecret => ({
  ...presentWebhook(w),
  secret: w.secret,
});

export const presentDelivery = (d: DeliveryRow): WebhookDelivery => ({
  id: d.id,
  event_id: d.eventId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: iso(d.nextAttemptAt),
  created_at: d.createdAt.toISOString(),
  delivered_at: iso(d.deliveredAt),
});
