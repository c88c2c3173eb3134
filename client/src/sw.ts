/// <reference lib="webworker" />
// The service worker (CONTRACT §16), built by vite-plugin-pwa (injectManifest): Workbox precaches the
// built app so `/` opens with no network — the app then shows the last known task and clock state it
// kept itself (client/src/offline). API and socket traffic are never cached here: they go to the network,
// and the app queues what fails. A Web Push shows a vibrating notification; tapping it opens the app.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { notificationFor, openApp } from './pwa/notification';

type PrecacheList = Parameters<typeof precacheAndRoute>[0];
const sw = self as unknown as ServiceWorkerGlobalScope;

// The build writes the list of files (with their hashes) where `self.__WB_MANIFEST` stands.
precacheAndRoute((self as unknown as { __WB_MANIFEST: PrecacheList }).__WB_MANIFEST);
cleanupOutdatedCaches();
// Every page of the app is index.html; the server's own paths are not pages.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /^\/socket\.io\//, /^\/health/],
  }),
);
// The first install takes the open page at once (so it works offline without a reload). An update waits
// until every tab of the old version is closed: an open page never loses the files it was built with.
clientsClaim();

sw.addEventListener('push', (event) => {
  const { title, options } = notificationFor(event.data?.text() ?? null);
  event.waitUntil(sw.registration.showNotification(title, options));
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openApp(sw.clients, event.notification.data, sw.location.origin));
});
