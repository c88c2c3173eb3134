// The client: how much JavaScript the first page load needs (a production build into a temporary folder;
// the JS that index.html loads — entry script and modulepreloads — gzipped), and how long the board takes
// to render N cards in Chromium (playwright-core; executable and flags from tests/browser/chromium.ts),
// served by the real server from that same build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Priority, VehicleType } from '@shared/enums';
import { UI_LOGIN } from '@shared/labels';
import { launch, openPage, WALL } from '../../tests/browser/chromium';
import { Rng } from '../generator/random';
import { description, initialPlace, moveFor, plate, SMALLEST_YARD } from '../generator/vocabulary';
import { createDatabase } from './database';
import type { Section } from './report';
import { api, login, ROOT, startServer, tempDir } from './server';
import { fmt, percentiles } from './stats';

export const CLIENT_BUDGETS = { initialJsKb: 250, renderMs: 150 };
const ADMIN = { email: 'bench-admin@bench.local', password: 'bench-admin-password' };

export interface ClientOptions {
  cards: number;
  /** Page loads measured (the median is reported). */
  loads: number;
  seed: number;
}

interface Bundle {
  files: number;
  raw: number;
  gzip: number;
  cssGzip: number;
}

/** vite build into `outDir`; the JS and CSS index.html asks for before anything runs. */
export function buildClient(outDir: string): Bundle {
  execFileSync(
    path.join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  return measureBuild(outDir);
}

/** The JS and CSS the index.html of a build in `outDir` asks for before anything runs. */
function measureBuild(outDir: string): Bundle {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const js = tags
    .filter((t) => (t.startsWith('<script') && /type="module"/.test(t)) || /rel="modulepreload"/.test(t))
    .map((t) => attr(t, 'src') ?? attr(t, 'href'))
    .filter((f): f is string => !!f);
  const css = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href')!);
  const read = (f: string) => fs.readFileSync(path.join(outDir, f.replace(/^\//, '')));
  const gz = (files: string[]) => files.reduce((n, f) => n + zlib.gzipSync(read(f)).length, 0);
  return {
    files: js.length,
    raw: js.reduce((n, f) => n + read(f).length, 0),
    gzip: gz(js),
    cssGzip: gz(css),
  };
}

/**
 * Measures in the page: the moment the GET /api/tasks answer is fully received (fetch wrapped before
 * the app loads), the moment the board's column counts add up to N with cards in the DOM (a
 * MutationObserver, which runs right after React's commit), and the next frame after that.
 */
const PROBE = (cards: number) => `(() => {
  const bench = (window.__bench = { data: 0, cards: 0, frame: 0 });
  const original = window.fetch;
  const done = () => {
    let total = 0;
    for (const c of document.querySelectorAll('[data-testid=column-count]')) total += Number(c.textContent) || 0;
    return total >= ${cards} && document.querySelector('[data-testid=task-card]');
  };
  window.fetch = async (input, init) => {
    const res = await original(input, init);
    const url = new URL(typeof input === 'string' ? input : input.url, location.href);
    if (url.pathname !== '/api/tasks' || (init?.method ?? 'GET') !== 'GET' || !res.ok || bench.data) return res;
    const body = await res.text();
    bench.data = performance.now();
    const observer = new MutationObserver(() => {
      if (bench.cards || !done()) return;
      bench.cards = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (bench.frame = performance.now())));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
})();`;

async function renderBoard(
  clientDir: string,
  dataDir: string,
  opts: ClientOptions,
  log: (line: string) => void,
): Promise<{ cards: number[]; frames: number[] }> {
  const database = await createDatabase(dataDir, 'render');
  const server = await startServer(database, {
    SERVE_CLIENT: '1',
    CLIENT_DIST: clientDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  try {
    const token = await login(server.url, ADMIN.email, ADMIN.password);
    log(`client: creating ${opts.cards} open tasks`);
    const rng = new Rng(opts.seed);
    const priorities: [Priority, number][] = [
      ['normal', 75],
      ['high', 17],
      ['low', 8],
    ];
    for (let i = 0; i < opts.cards; i++) {
      // Swap tasks wait in the pool (never auto-assigned): all of them stay open cards.
      const type: VehicleType = 'swap';
      const origin = initialPlace(rng, true, SMALLEST_YARD);
      const move = moveFor(rng, type, origin, SMALLEST_YARD);
      await api(`${server.url}/api/tasks`, 'POST', token, {
        title: move.title,
        description: description(rng),
        origin: origin.name,
        destination: move.destination.name,
        trailer_id: `${plate(rng, true)}-${i}`,
        priority: rng.weighted(priorities),
        vehicle_type: type,
      });
    }
    const browser = await launch();
    try {
      const { page } = await openPage(browser, server.url, WALL);
      await page.goto('/login');
      await page.getByLabel(UI_LOGIN.email).fill(ADMIN.email);
      await page.getByLabel(UI_LOGIN.password).fill(ADMIN.password);
      await page.getByRole('button', { name: UI_LOGIN.submitLogin, exact: true }).click();
      await page.waitForURL('**/dashboard');
      await page.addInitScript(PROBE(opts.cards));
      const cards: number[] = [];
      const frames: number[] = [];
      log(`client: rendering the board of ${opts.cards} cards ${opts.loads} times`);
      for (let i = 0; i < opts.loads; i++) {
        await page.reload();
        const probe = await page.waitForFunction(
          () => {
            const b = (window as unknown as { __bench: { data: number; cards: number; frame: number } })
              .__bench;
            return b.frame ? b : null;
          },
          undefined,
          { timeout: 30_000 },
        );
        const b = (await probe.jsonValue()) as { data: number; cards: number; frame: number };
        cards.push(b.cards - b.data);
        frames.push(b.frame - b.data);
      }
      return { cards, frames };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    await database.drop();
  }
}

/**
 * `sharedDist`: a folder the bench's engine processes share (the build does not depend on the engine):
 * the first one builds into it, the next one measures the same files.
 */
export async function runClient(
  opts: ClientOptions,
  log: (line: string) => void,
  sharedDist?: string,
): Promise<Section[]> {
  const tmp = tempDir('client');
  try {
    const dist = sharedDist ?? path.join(tmp.dir, 'dist');
    const built = fs.existsSync(path.join(dist, 'index.html'));
    log(built ? 'client: the production build already made' : 'client: production build');
    const bundle = built ? measureBuild(dist) : buildClient(dist);
    const render = await renderBoard(dist, tmp.dir, opts, log);
    const kb = (bytes: number) => bytes / 1000;
    const cards = percentiles(render.cards, 0);
    const frames = percentiles(render.frames, 0);
    return [
      {
        name: 'Client',
        rows: [
          {
            measure: `initial JavaScript, gzip (${bundle.files} files loaded by index.html)`,
            result: `${fmt(kb(bundle.gzip))} kB (${fmt(kb(bundle.raw))} kB raw; CSS ${fmt(kb(bundle.cssGzip))} kB gzip)`,
            budget: `≤ ${CLIENT_BUDGETS.initialJsKb} kB`,
            ok: kb(bundle.gzip) <= CLIENT_BUDGETS.initialJsKb,
          },
          {
            measure: `board of ${opts.cards} cards: GET /api/tasks received → cards in the DOM (median of ${opts.loads} loads)`,
            result: `${fmt(cards.p50, 0)} ms (max ${fmt(cards.max, 0)})`,
            budget: `≤ ${CLIENT_BUDGETS.renderMs} ms`,
            ok: cards.p50 <= CLIENT_BUDGETS.renderMs,
          },
          {
            measure: '… → the next frame after them',
            result: `${fmt(frames.p50, 0)} ms (max ${fmt(frames.max, 0)})`,
          },
        ],
      },
    ];
  } finally {
    tmp.remove();
  }
}
