// The API reference (CONTRACT §21 "OpenAPI"): /api/docs renders the document's operations with Swagger UI
// from the npm package, under the app's CSP, with no violation.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { API_DOC } from '@shared/labels';
import { DESKTOP, launch, openPage, screenshot } from './chromium';
import { watch } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

it('/api/docs shows every documented operation and breaks no CSP rule', async () => {
  const document = (await (await fetch(`${inject('baseUrl')}/api/openapi.json`)).json()) as {
    paths: Record<string, object>;
  };
  const operationCount = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
  const w = await watch(page);
  await page.goto('/api/docs');
  await page.getByText(API_DOC.title).first().waitFor();
  await expect(page.title()).resolves.toBe(API_DOC.pageTitle);
  for (const tag of Object.values(API_DOC.tags)) {
    await page.locator('.opblock-tag', { hasText: tag }).waitFor();
  }
  const operations = page.locator('.opblock');
  await expect.poll(() => operations.count()).toBe(operationCount);
  await page.getByText(API_DOC.ops.createTask.summary).click();
  await page.locator('.opblock-description-wrapper', { hasText: 'tasks:write' }).waitFor();
  await screenshot(page, 'api-docs');
  expect(w.violations).toEqual([]);
  await context.close();
});
