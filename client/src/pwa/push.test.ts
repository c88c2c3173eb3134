import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_MSG } from '@shared/labels';
import { json, mockFetch, sentBody } from '../test/http';
import { ENDPOINT, KEYS, VAPID_BYTES, servePush as serve, stubPush } from '../test/push';
import { useSession } from '../stores/session';
import { dropPushSubscription, enablePush, pushSupport, syncPushSubscription } from './push';

const calls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(
    ([url, init]) => `${init?.method ?? 'GET'} ${new URL(String(url), 'http://x').pathname}`,
  );

function setUA(ua: string) {
  Object.defineProperty(navigator, 'userAgent', { value: ua, configurable: true });
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const key of ['serviceWorker', 'userAgent', 'standalone'])
    delete (navigator as unknown as Record<string, unknown>)[key];
  delete (window as unknown as Record<string, unknown>).isSecureContext;
  localStorage.clear();
});

describe('pushSupport', () => {
  it('supported with the APIs in a secure context; insecure over plain HTTP; unsupported without them', () => {
    stubPush();
    expect(pushSupport()).toBe('supported');
    Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
    expect(pushSupport()).toBe('insecure');
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    vi.unstubAllGlobals();
    expect(pushSupport()).toBe('unsupported');
  });

  it('an iPhone tab must be installed first; the installed app is supported', () => {
    stubPush();
    setUA(IPHONE);
    expect(pushSupport()).toBe('ios-not-installed');
    Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
    expect(pushSupport()).toBe('supported');
  });
});

describe('enablePush', () => {
  it('granted: subscribes with the server key and posts endpoint and keys', async () => {
    const push = stubPush();
    const fetch = serve();
    await expect(enablePush()).resolves.toEqual({ status: 'subscribed', message: PUSH_MSG.subscribed });
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(push.pushManager.subscribe).toHaveBeenCalledTimes(1);
    const opts = push.pushManager.subscribe.mock.calls[0][0];
    expect(opts.userVisibleOnly).toBe(true);
    expect([...(opts.applicationServerKey as Uint8Array)]).toEqual([...VAPID_BYTES]);
    expect(calls(fetch)).toEqual(['GET /api/push/public-key', 'POST /api/push/subscriptions']);
    expect(sentBody(fetch, 1)).toEqual({ endpoint: ENDPOINT, keys: KEYS });
  });

  it('denied: nothing subscribed, nothing sent', async () => {
    const push = stubPush({ answer: 'denied' });
    const fetch = serve();
    await expect(enablePush()).resolves.toEqual({ status: 'denied' });
    expect(push.pushManager.subscribe).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('the permission prompt closed without an answer: dismissed, asking again stays possible', async () => {
    stubPush({ answer: 'default' });
    const fetch = serve();
    await expect(enablePush()).resolves.toEqual({ status: 'dismissed' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a subscription made with another server key is replaced', async () => {
    const push = stubPush({ existing: true, existingKey: new Uint8Array(65).fill(9).buffer });
    const fetch = serve();
    await expect(enablePush()).resolves.toMatchObject({ status: 'subscribed' });
    expect(push.first?.unsubscribe).toHaveBeenCalledTimes(1);
    expect(push.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(sentBody(fetch, 1)).toEqual({ endpoint: ENDPOINT, keys: KEYS });
  });

  it('the server refuses: failed with its reason', async () => {
    stubPush();
    serve({ subscribe: json(400, { detail: 'La clave p256dh debe ser…' }) });
    await expect(enablePush()).resolves.toEqual({
      status: 'failed',
      reason: 'server',
      detail: 'La clave p256dh debe ser…',
    });
  });

  it('the browser cannot subscribe (no push service): failed, nothing posted', async () => {
    const push = stubPush();
    push.pushManager.subscribe.mockRejectedValueOnce(new DOMException('push service error', 'AbortError'));
    const fetch = serve();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(enablePush()).resolves.toMatchObject({ status: 'failed', reason: 'subscribe' });
    expect(calls(fetch)).toEqual(['GET /api/push/public-key']);
  });
});

describe('syncPushSubscription', () => {
  it('permission already granted: the existing subscription is posted again, once, without asking', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = serve();
    await expect(syncPushSubscription()).resolves.toBe(true);
    expect(push.requestPermission).not.toHaveBeenCalled();
    expect(push.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls(fetch)).toEqual(['GET /api/push/public-key', 'POST /api/push/subscriptions']);
    expect(sentBody(fetch, 1)).toEqual({ endpoint: ENDPOINT, keys: KEYS });
  });

  it('granted but no subscription any more (a logout dropped it): subscribes again', async () => {
    const push = stubPush({ permission: 'granted' });
    const fetch = serve();
    await expect(syncPushSubscription()).resolves.toBe(true);
    expect(push.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(sentBody(fetch, 1)).toEqual({ endpoint: ENDPOINT, keys: KEYS });
  });

  it('permission not granted: does nothing', async () => {
    stubPush({ permission: 'default' });
    const fetch = serve();
    await expect(syncPushSubscription()).resolves.toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('logout drops the subscription (a shared phone)', () => {
  const driver = { id: 'd1', name: 'Luis', email: 'luis@patio.es', role: 'conductor' as const };
  function signIn(user: typeof driver | { id: string; name: string; email: string; role: 'gestor' }) {
    localStorage.setItem('torre.token', 'tok-1');
    localStorage.setItem('torre.user', JSON.stringify(user));
    useSession.setState({ token: 'tok-1', user, status: 'authenticated' });
  }

  it('DELETEs the endpoint with the driver token before the logout, then unsubscribes', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = serve();
    signIn(driver);
    await useSession.getState().logout();
    expect(calls(fetch)).toEqual(['DELETE /api/push/subscriptions', 'POST /api/auth/logout']);
    expect(sentBody(fetch, 0)).toEqual({ endpoint: ENDPOINT });
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Authorization')).toBe('Bearer tok-1');
    expect(push.first?.unsubscribe).toHaveBeenCalledTimes(1);
    expect(push.current()).toBeNull();
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('a DELETE that fails does not block the logout; the browser still unsubscribes', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = mockFetch((path) => {
      if (path === '/push/subscriptions') throw new TypeError('network down');
      return json(200, { message: 'ok' });
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    signIn(driver);
    await useSession.getState().logout();
    expect(calls(fetch)).toEqual(['DELETE /api/push/subscriptions', 'POST /api/auth/logout']);
    expect(push.first?.unsubscribe).toHaveBeenCalledTimes(1);
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('staff subscribe too (CONTRACT §23): their logout DELETEs the endpoint as well', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = serve();
    signIn({ id: 'g1', name: 'Marta', email: 'marta@patio.es', role: 'gestor' });
    await useSession.getState().logout();
    expect(calls(fetch)).toEqual(['DELETE /api/push/subscriptions', 'POST /api/auth/logout']);
    expect(sentBody(fetch, 0)).toEqual({ endpoint: ENDPOINT });
    expect(push.first?.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('no subscription: the logout goes on as before', async () => {
    stubPush({ permission: 'default' });
    const fetch = serve();
    signIn(driver);
    await useSession.getState().logout();
    expect(calls(fetch)).toEqual(['POST /api/auth/logout']);
  });

  it('a session ended by the server (no logout) still drops the browser subscription', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    signIn(driver);
    useSession.getState().end();
    await vi.waitFor(() => expect(push.first?.unsubscribe).toHaveBeenCalledTimes(1));
  });

  it('dropPushSubscription without service workers does nothing', async () => {
    const fetch = serve();
    await expect(dropPushSubscription()).resolves.toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
  });
});
