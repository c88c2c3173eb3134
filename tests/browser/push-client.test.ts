// The driver's `Activar avisos` and the service worker's notification (CONTRACT §16) in Chromium at
// 390×844. Headless Chromium has no push service, so PushManager.subscribe is replaced by a fake that
// returns a subscription with an https endpoint and real P-256 keys (the server validates them); the
// rest — permission, the service worker's registration, the POST, the server's table — is real. The
// notification a push shows is driven through CDP (ServiceWorker.deliverPushMessage) into the built
// service worker. Screenshots of the offer and of the refusal go to /tmp/torre-screens.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PUSH_MSG, PUSH_UI, UI_HEADER } from '@shared/labels';
import { ALERT_VIBRATION_MS } from '@shared/constants';
import type { PushPublicKey } from '@shared/schemas';
import { DESKTOP, PHONE, screenshot } from './chromium';
import { AUTO, driverScene } from './driver-scene';
import { apiCall, createUser, loginApi, loginUi, type TestAccount } from './helpers';

const scene = driverScene('PSH');

/** A browser's subscription: an https endpoint and real RFC 8291 keys (P-256 public key, 16-byte secret). */
function fakeSubscription() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: crypto.randomBytes(16).toString('base64url'),
  };
}

/** Replaces PushManager's subscribe/getSubscription in the page; records the applicationServerKey asked. */
async function fakePushManager(page: Page, sub: ReturnType<typeof fakeSubscription>): Promise<void> {
  await page.addInitScript((s) => {
    let current: PushSubscription | null = null;
    const w = window as unknown as { __pushKey?: string };
    const made = {
      endpoint: s.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      getKey: () => null,
      toJSON: () => ({
        endpoint: s.endpoint,
        expirationTime: null,
        keys: { p256dh: s.p256dh, auth: s.auth },
      }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    } as unknown as PushSubscription;
    PushManager.prototype.subscribe = async function (opts?: PushSubscriptionOptionsInit) {
      const key = new Uint8Array(opts?.applicationServerKey as ArrayBuffer);
      w.__pushKey = btoa(String.fromCharCode(...key))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      current = made;
      return made;
    };
    PushManager.prototype.getSubscription = async function () {
      return current;
    };
  }, sub);
}

/**
 * The browser's notification permission as a phone starts it: 'default' until the driver answers the
 * browser's question with `answer` (kept across reloads, as the browser keeps it). Chromium builds differ
 * here — the headless shell denies notifications outright — and the screen's logic is what is tested.
 */
async function notificationPermission(page: Page, answer: NotificationPermission): Promise<void> {
  await page.addInitScript((a) => {
    const KEY = 'test.notification-permission';
    Object.defineProperty(Notification, 'permission', {
      configurable: true,
      get: () => localStorage.getItem(KEY) ?? 'default',
    });
    Notification.requestPermission = () => {
      localStorage.setItem(KEY, a);
      return Promise.resolve(a);
    };
  }, answer);
}

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });

/** The card fits the phone: inside the viewport, no sideways scroll, every button a ≥ 44 px target. */
async function expectFits(page: Page, card: Locator): Promise<void> {
  const box = (await card.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const buttons = card.getByRole('button');
  const n = await buttons.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const b = (await buttons.nth(i).boundingBox())!;
    expect(b.height).toBeGreaterThanOrEqual(44);
    expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
  }
}

async function openDriverScreen(page: Page, account: TestAccount): Promise<void> {
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.getByTestId('timeclock-status').waitFor();
}

const isSubscriptionPost = (url: string, method: string) =>
  method === 'POST' && new URL(url).pathname === '/api/push/subscriptions';

describe('driver push subscription at 390×844', () => {
  it('granted: `Activar avisos` stores the subscription on the server, and is not offered again', async () => {
    const driver = await scene.driver([AUTO]);
    const sub = fakeSubscription();
    const page = await scene.page();
    await fakePushManager(page, sub);
    await notificationPermission(page, 'granted');
    await openDriverScreen(page, driver);

    const card = page.getByTestId('push-prompt');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain(PUSH_UI.offerWhy);
    await expectFits(page, card);
    await screenshot(page, 'push-prompt');

    // The driver allows notifications when the browser asks (notificationPermission above).
    const posted = page.waitForRequest((r) => isSubscriptionPost(r.url(), r.method()));
    await button(card, PUSH_UI.enable).click();
    expect((await posted).postDataJSON()).toEqual({
      endpoint: sub.endpoint,
      keys: { p256dh: sub.p256dh, auth: sub.auth },
    });
    await page.locator('[data-sonner-toast]').filter({ hasText: PUSH_MSG.subscribed }).waitFor();
    await card.waitFor({ state: 'detached' });
    // subscribe() was asked for the server's own VAPID key.
    const token = await loginApi(driver.email, driver.password);
    const { public_key } = await apiCall<PushPublicKey>('GET', '/push/public-key', { token });
    await expect(page.evaluate(() => (window as { __pushKey?: string }).__pushKey)).resolves.toBe(public_key);

    // After a reload the permission is granted: no card; the subscription is only registered again.
    const again = page.waitForResponse((r) => isSubscriptionPost(r.url(), r.request().method()));
    await page.reload();
    await page.getByTestId('timeclock-status').waitFor();
    expect((await again).ok()).toBe(true);
    await expect(page.getByTestId('push-prompt').count()).resolves.toBe(0);
    await expect(page.getByTestId('push-denied').count()).resolves.toBe(0);

    // The server has it, as this driver's: the first DELETE removes it, the second finds nothing.
    const del = (t: string) =>
      fetch(`${inject('baseUrl')}/api/push/subscriptions`, {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t}` },
        body: JSON.stringify({ endpoint: sub.endpoint }),
      });
    const first = await del(token);
    expect(first.status, await first.text()).toBeGreaterThanOrEqual(200);
    expect(first.status).toBeLessThan(300);
    expect((await del(token)).status).toBe(404);
  });

  it('denied: the card explains how to allow notifications in the browser settings', async () => {
    const driver = await scene.driver([AUTO]);
    const page = await scene.page();
    await notificationPermission(page, 'denied');
    await openDriverScreen(page, driver);

    const posted: string[] = [];
    page.on('request', (r) => {
      if (isSubscriptionPost(r.url(), r.method())) posted.push(r.url());
    });
    await button(page.getByTestId('push-prompt'), PUSH_UI.enable).click();
    const card = page.getByTestId('push-denied');
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain(PUSH_UI.deniedTitle);
    expect(text).toContain(PUSH_UI.deniedHow);
    await expect(page.getByTestId('push-prompt').count()).resolves.toBe(0);
    await expectFits(page, card);
    await screenshot(page, 'push-denied');
    expect(posted).toEqual([]);

    await button(card, PUSH_UI.dismiss).click();
    await card.waitFor({ state: 'detached' });
  });

  it("the service worker shows a push as a vibrating notification with the task's title, body and tag", async () => {
    const page = await scene.page();
    await page.context().grantPermissions(['notifications']);
    await page.goto('/login');
    const origin = new URL(page.url()).origin;
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // What the service worker asks the system to show, recorded inside it (whether this Chromium build
    // can display notifications or not: the headless shell cannot).
    const worker =
      page
        .context()
        .serviceWorkers()
        .find((w) => w.url() === `${origin}/sw.js`) ?? (await page.context().waitForEvent('serviceworker'));
    await worker.evaluate(() => {
      type Shown = { title: string; options: NotificationOptions & { vibrate?: number[] } };
      const scope = self as unknown as { registration: ServiceWorkerRegistration; __shown: Shown[] };
      const show = scope.registration.showNotification.bind(scope.registration);
      scope.__shown = [];
      scope.registration.showNotification = (title: string, options: NotificationOptions = {}) => {
        scope.__shown.push({ title, options });
        return show(title, options).catch(() => undefined);
      };
    });

    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const r = registrations.find((x) => x.scopeURL === `${origin}/` && !x.isDeleted);
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const taskId = crypto.randomUUID();
    const payload = {
      type: 'task_assigned',
      task_id: taskId,
      title: 'Nueva tarea asignada',
      body: `Mover ${scene.trailer()} de Muelle 2 a Campa Este`,
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });

    const shown = () =>
      worker.evaluate(() =>
        (
          self as unknown as {
            __shown: { title: string; options: NotificationOptions & { vibrate?: number[] } }[];
          }
        ).__shown.map(({ title, options }) => ({
          title,
          body: options.body,
          tag: options.tag,
          vibrate: options.vibrate,
          requireInteraction: options.requireInteraction,
        })),
      );
    await expect.poll(shown).toHaveLength(1);
    expect(await shown()).toEqual([
      {
        title: payload.title,
        body: payload.body,
        tag: `task-${taskId}`,
        vibrate: [...ALERT_VIBRATION_MS],
        requireInteraction: true,
      },
    ]);
    await cdp.detach();
  });
});

describe('staff push subscription at 1440×900 (CONTRACT §23, §24)', () => {
  it("a manager's header bell stores the subscription on the server and goes away", async () => {
    const manager = await createUser('manager');
    const sub = fakeSubscription();
    const page = await scene.page(DESKTOP);
    await fakePushManager(page, sub);
    await notificationPermission(page, 'granted');
    await loginUi(page, manager);

    const bell = page.getByRole('button', { name: PUSH_UI.staffEnable });
    await bell.waitFor();
    await screenshot(page, 'push-staff-bell-1440');
    const posted = page.waitForRequest((r) => isSubscriptionPost(r.url(), r.method()));
    await bell.click();
    expect((await posted).postDataJSON()).toEqual({
      endpoint: sub.endpoint,
      keys: { p256dh: sub.p256dh, auth: sub.auth },
    });
    await page.locator('[data-sonner-toast]').filter({ hasText: PUSH_MSG.subscribed }).waitFor();
    await bell.waitFor({ state: 'detached' });

    // The server keeps it as the manager's: their DELETE removes it.
    const token = await loginApi(manager.email, manager.password);
    const removed = await fetch(`${inject('baseUrl')}/api/push/subscriptions`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ endpoint: sub.endpoint }),
    });
    expect(removed.status).toBe(200);
  });
});
