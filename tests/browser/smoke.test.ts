import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('served client', () => {
  it('serves the SPA on /login with the product title', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'));
    await page.goto('/login');
    // The login page is loaded after the shell (App.tsx): wait for it, then check it is the product's.
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect(
      page.getByRole('heading', { name: 'Torre de Control de Movimientos' }).isVisible(),
    ).resolves.toBe(true);
    await context.close();
  });
});
