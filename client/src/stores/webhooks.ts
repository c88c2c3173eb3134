// Sistema → Integraciones › Webhooks (CONTRACT §21): the admin's webhooks, one's deliveries, and what is done
// to them. A secret (a new webhook's, a rotated one) is only in the answer that made it.
import { create } from 'zustand';
import type { WebhookEvent } from '@shared/enums';
import type { Webhook, WebhookDelivery, WebhookTestResult, WebhookWithSecret } from '@shared/schemas';
import { api } from '../api';
import { onSessionEnd } from './session-end';

/** What the form sends (POST all of it; PUT what the form shows). */
export interface WebhookDraft {
  url: string;
  description: string;
  events: WebhookEvent[];
  active: boolean;
}

interface WebhooksState {
  hooks: Webhook[] | null;
  failed: boolean;
  load: () => Promise<void>;
  /** Resolves with the new webhook and its secret (shown once); the list is read again. */
  create: (draft: WebhookDraft) => Promise<WebhookWithSecret>;
  update: (id: string, draft: WebhookDraft) => Promise<void>;
  remove: (id: string) => Promise<void>;
  rotate: (id: string) => Promise<WebhookWithSecret>;
  test: (id: string) => Promise<WebhookTestResult>;
  deliveries: (id: string) => Promise<WebhookDelivery[]>;
  retry: (deliveryId: number) => Promise<void>;
}

const initial = { hooks: null, failed: false };

export const useWebhooks = create<WebhooksState>((set, get) => ({
  ...initial,
  load: async () => {
    try {
      set({ hooks: await api.get<Webhook[]>('/admin/webhooks'), failed: false });
    } catch {
      set({ failed: true });
    }
  },
  create: async ({ url, description, events }) => {
    const made = await api.post<WebhookWithSecret>('/admin/webhooks', { url, description, events });
    await get().load();
    return made;
  },
  update: async (id, draft) => {
    await api.put(`/admin/webhooks/${id}`, draft);
    await get().load();
  },
  remove: async (id) => {
    await api.del(`/admin/webhooks/${id}`);
    await get().load();
  },
  rotate: (id) => api.post<WebhookWithSecret>(`/admin/webhooks/${id}/rotate-secret`),
  test: (id) => api.post<WebhookTestResult>(`/admin/webhooks/${id}/test`),
  deliveries: (id) => api.get<WebhookDelivery[]>(`/admin/webhooks/${id}/deliveries`),
  retry: async (deliveryId) => {
    await api.post(`/admin/webhooks/deliveries/${deliveryId}/retry`);
  },
}));

onSessionEnd(() => useWebhooks.setState(initial));
