// jsdom stand-ins for Web Push (CONTRACT §16): the browser's Notification, PushManager and service
// worker registration, scripted, and a server that answers the push endpoints.
import { vi } from 'vitest';
import { PUSH_MSG } from '@shared/labels';
import { json, mockFetch } from './http';

// A VAPID public key as the server gives it (65 bytes, uncompressed P-256) and a browser subscription.
export const VAPID_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i));
export const VAPID = Buffer.from(VAPID_BYTES).toString('base64url');
export const ENDPOINT = 'https://push.example.test/send/abc123';
export const KEYS = { p256dh: `B${'a'.repeat(86)}`, auth: 'b'.repeat(22) };

type Permission = NotificationPermission;

/** Notification, PushManager and the service worker's registration, scripted. */
export function stubPush({
  permission = 'default' as Permission,
  answer = 'granted' as Permission,
  existing = false,
  existingKey = null as ArrayBuffer | null,
} = {}) {
  const state = { permission };
  const makeSub = (key: ArrayBuffer | null) => {
    const sub = {
      endpoint: ENDPOINT,
      options: { applicationServerKey: key, userVisibleOnly: true },
      toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { ...KEYS } }),
      unsubscribe: vi.fn(async () => {
        if (current === sub) current = null;
        return true;
      }),
    };
    return sub;
  };
  let current: ReturnType<typeof makeSub> | null = existing ? makeSub(existingKey) : null;
  const first = current;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (opts: PushSubscriptionOptionsInit) => {
      current = makeSub((opts.applicationServerKey as Uint8Array<ArrayBuffer>).buffer);
      return current;
    }),
  };
  const registration = { pushManager };
  const requestPermission = vi.fn(async () => {
    state.permission = answer;
    return answer;
  });
  vi.stubGlobal('Notification', {
    get permission() {
      return state.permission;
    },
    requestPermission,
  });
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: vi.fn(async () => registration) },
  });
  return { pushManager, requestPermission, first, current: () => current };
}

/** The server: the VAPID key, subscriptions and logout; `subscribe` replaces the POST's answer. */
export function servePush(over: { subscribe?: Response } = {}) {
  return mockFetch((path, init) => {
    if (path === '/push/public-key') return json(200, { public_key: VAPID });
    if (path === '/push/subscriptions' && init.method === 'POST')
      return over.subscribe?.clone() ?? json(200, { message: PUSH_MSG.subscribed });
    if (path === '/push/subscriptions' && init.method === 'DELETE')
      return json(200, { message: PUSH_MSG.unsubscribed });
    if (path === '/auth/logout') return json(200, { message: 'ok' });
    return json(404, { detail: 'Recurso no encontrado' });
  });
}
