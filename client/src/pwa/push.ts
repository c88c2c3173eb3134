// Web Push in the browser (CONTRACT §16, §23): what this browser can do, `Activar avisos` (the driver's
// card, staff's header button: permission → the service worker's push subscription → POST
// /push/subscriptions), keeping that subscription registered on later visits, and dropping it at logout so
// the next person on a shared device gets nothing of the last user's.
import { PUSH_UI } from '@shared/labels';
import type { PushPublicKey, PushSubscriptionInput } from '@shared/schemas';
import { api, ApiError, errorText } from '../api';
import { getStoredToken } from '../storage';
import { onBeforeLogout, onSessionEnd } from '../stores/session-end';

/**
 * - `supported`: the Push API, notifications and service workers are there, in a secure context.
 * - `insecure`: plain HTTP over a LAN: no service worker, no push (CONTRACT §16 says to serve HTTPS).
 * - `ios-not-installed`: an iPhone/iPad browser tab: iOS (≥ 16.4) only delivers push to the app added
 *   to the home screen and opened from there.
 * - `unsupported`: anything else without the APIs (an old browser, iOS before 16.4).
 */
export type PushSupport = 'supported' | 'insecure' | 'ios-not-installed' | 'unsupported';

export type PushFailure = 'unsupported' | 'no-service-worker' | 'subscribe' | 'server';

export type PushOutcome =
  | { status: 'subscribed'; message: string }
  /** The browser refused (now, or the driver blocked the site before): only its settings can undo it. */
  | { status: 'denied' }
  /** The permission prompt was closed without an answer: asking again is possible. */
  | { status: 'dismissed' }
  | { status: 'failed'; reason: PushFailure; detail: string | null };

const FAILURE_TEXT: Record<PushFailure, string> = {
  unsupported: PUSH_UI.failed.unsupported,
  'no-service-worker': PUSH_UI.failed.noServiceWorker,
  subscribe: PUSH_UI.failed.subscribe,
  server: PUSH_UI.failed.server,
};

/** Why `Activar avisos` did not work, as a toast says it: the server's own reason when it gave one. */
export const failureText = ({ reason, detail }: { reason: PushFailure; detail: string | null }): string =>
  (reason === 'server' && detail) || FAILURE_TEXT[reason];

/** How long `navigator.serviceWorker.ready` may take before the app is taken as not installed. */
export const SW_READY_TIMEOUT_MS = 10_000;

const SUBSCRIPTIONS_PATH = '/push/subscriptions';

function isIos(): boolean {
  const ua = navigator.userAgent;
  // iPadOS 13+ says it is a Mac; a Mac has no touch screen.
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

function isInstalled(): boolean {
  return (
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches)
  );
}

/** What this browser can do about Web Push, here and now. */
export function pushSupport(): PushSupport {
  if (!window.isSecureContext) return 'insecure';
  if (isIos() && !isInstalled()) return 'ios-not-installed';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return 'supported';
}

/** The VAPID key (base64url, as the server gives it) as the bytes subscribe() wants. */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  // A browser that does not say which key a subscription was made with: take it as this one.
  if (!a) return true;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), SW_READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const failed = (reason: PushFailure, detail: string | null = null): PushOutcome => ({
  status: 'failed',
  reason,
  detail,
});

/**
 * With the permission granted: the service worker's subscription for the server's current VAPID key
 * (one made with another key — the server's data was reset — is replaced), stored on the server. The
 * server upserts by endpoint, so posting an existing subscription again is harmless.
 */
async function subscribeAndRegister(): Promise<PushOutcome> {
  const registration = await readyRegistration();
  if (!registration?.pushManager) return failed('no-service-worker');
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = fromBase64Url((await api.get<PushPublicKey>('/push/public-key')).public_key);
  } catch (err) {
    return failed('server', err instanceof ApiError ? err.detail : null);
  }
  let subscription: PushSubscription;
  try {
    let current = await registration.pushManager.getSubscription();
    if (current && !sameBytes(current.options?.applicationServerKey, key)) {
      await current.unsubscribe();
      current = null;
    }
    subscription =
      current ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  } catch (err) {
    console.warn('No se pudo suscribir a los avisos push', err);
    return failed('subscribe', err instanceof Error ? err.message : null);
  }
  const json = subscription.toJSON();
  const body: PushSubscriptionInput = {
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  };
  try {
    const { message } = await api.post<{ message: string }>(SUBSCRIPTIONS_PATH, body);
    return { status: 'subscribed', message };
  } catch (err) {
    return failed('server', err instanceof ApiError ? err.detail : null);
  }
}

/** `Activar avisos`: asks the browser, subscribes and registers the subscription on the server. */
export async function enablePush(): Promise<PushOutcome> {
  if (pushSupport() !== 'supported') return failed('unsupported');
  let permission: NotificationPermission;
  try {
    permission = await Notification.requestPermission();
  } catch (err) {
    console.warn('No se pudo pedir permiso para los avisos', err);
    return failed('unsupported');
  }
  if (permission === 'denied') return { status: 'denied' };
  if (permission !== 'granted') return { status: 'dismissed' };
  return subscribeAndRegister();
}

/**
 * On the user's screen when the permission is already granted: makes sure the subscription exists and
 * is this user's on the server (after a logout, on a shared device, or a browser that renewed it).
 * Never throws; true when the server has it.
 */
export async function syncPushSubscription(): Promise<boolean> {
  if (pushSupport() !== 'supported' || Notification.permission !== 'granted') return false;
  try {
    const outcome = await subscribeAndRegister();
    if (outcome.status !== 'subscribed') console.warn('No se pudieron renovar los avisos push', outcome);
    return outcome.status === 'subscribed';
  } catch (err) {
    console.warn('No se pudieron renovar los avisos push', err);
    return false;
  }
}

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!window.isSecureContext || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/**
 * At logout, while the token is still good: the server forgets this device's subscription (drivers' and
 * staff's alike), then the browser drops it. Never throws.
 */
export async function dropPushSubscription(): Promise<void> {
  let subscription: PushSubscription | null;
  try {
    subscription = await currentSubscription();
  } catch (err) {
    console.warn('No se pudo leer la suscripción a los avisos', err);
    return;
  }
  if (!subscription) return;
  try {
    if (getStoredToken()) await api.del(SUBSCRIPTIONS_PATH, { endpoint: subscription.endpoint });
  } catch (err) {
    // 404: the server had already forgotten it. Anything else: the unsubscribe below makes the push
    // service answer 410 to the next push, and the server then deletes the row itself.
    if (!(err instanceof ApiError && err.status === 404))
      console.warn('No se pudo borrar la suscripción a los avisos', errorText(err, String(err)));
  }
  try {
    await subscription.unsubscribe();
  } catch (err) {
    console.warn('No se pudo cancelar la suscripción a los avisos', err);
  }
}

onBeforeLogout(dropPushSubscription);
// A session that ends without a logout (revoked, expired): the server cannot be told any more, but the
// browser's subscription goes, so this phone shows no more of that driver's pushes.
onSessionEnd(() => {
  void currentSubscription()
    .then((s) => s?.unsubscribe())
    .catch((err: unknown) => console.warn('No se pudo cancelar la suscripción a los avisos', err));
});
