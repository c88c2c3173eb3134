// Registers the service worker of the built app (vite-plugin-pwa's `virtual:pwa-register`). Browsers only
// allow it in a secure context (HTTPS, or localhost): on plain HTTP over a LAN the app works online only.
import { registerSW } from 'virtual:pwa-register';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  registerSW({
    immediate: true,
    onRegisterError: (err: unknown) => console.warn('No se pudo registrar el service worker', err),
  });
}
