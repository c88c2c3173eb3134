// Chromium through playwright-core, for the browser tests and the bench (scripts/bench/client.ts).
// Which Chromium: CHROMIUM_PATH if set, else Debian's /usr/bin/chromium when installed, else the
// headless Chromium inside the @sparticuz/chromium devDependency (unpacked to /tmp/chromium), so a
// machine with only Node and npm runs the browser tests too. Always with the flags below.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const PHONE = { width: 390, height: 844 };
export const WALL = { width: 1920, height: 1080 };
export const DESKTOP = { width: 1440, height: 900 };
/** A gate tablet in landscape (the Portería, CONTRACT §19). */
export const TABLET = { width: 1280, height: 800 };

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumExecutable {
  path: string;
  from: 'CHROMIUM_PATH' | 'debian' | '@sparticuz/chromium';
  /** Extra environment for the browser process. */
  env?: Record<string, string>;
}

let resolved: Promise<ChromiumExecutable> | undefined;

/** The Chromium to launch (resolved once per process). */
export function chromiumExecutable(): Promise<ChromiumExecutable> {
  resolved ??= resolveChromium();
  return resolved;
}

async function resolveChromium(): Promise<ChromiumExecutable> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return { path: fromEnv, from: 'CHROMIUM_PATH' };
  try {
    fs.accessSync(DEBIAN_CHROMIUM, fs.constants.X_OK);
    return { path: DEBIAN_CHROMIUM, from: 'debian' };
  } catch {
    const exe = await unpackNpmChromium();
    return { path: exe, from: '@sparticuz/chromium', env: { FONTCONFIG_FILE: npmFontConfig() } };
  }
}

/**
 * The npm Chromium reads fonts through fontconfig and, with no config, draws no text at all. This
 * config takes the system's fonts when there are any (Debian's fontconfig: the same fonts Debian's
 * Chromium uses) and always adds the Open Sans that the package unpacks to /tmp/fonts, so Spanish
 * text renders on a machine without fonts too.
 */
function npmFontConfig(): string {
  const tmp = os.tmpdir();
  const file = path.join(tmp, 'chromium-fonts.conf');
  const xml = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${path.join(tmp, 'fonts')}</dir>`,
    `  <cachedir>${path.join(tmp, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== xml) {
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, xml);
    fs.renameSync(partial, file);
  }
  return file;
}

/**
 * The package's executablePath() unpacks chromium, fonts and SwiftShader into the temp folder, but
 * takes an existing /tmp/chromium as done: a half-written one (a concurrent or killed run) would stay
 * broken. So unpack under a lock folder, and trust the files only once a stamp says an unpack of
 * this package version finished.
 */
async function unpackNpmChromium(): Promise<string> {
  const pkgDir = path.resolve(
    path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')),
    '../..',
  );
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
  const tmp = os.tmpdir();
  const exe = path.join(tmp, 'chromium');
  const stamp = path.join(tmp, 'chromium.unpacked');
  const done = () => fs.existsSync(exe) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === version;
  if (done()) return exe;

  const lock = path.join(tmp, 'chromium.unpack-lock');
  for (let waited = 0; ; waited += 200) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than two minutes belongs to a run that died mid-unpack.
      if (Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 120_000) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (waited > 180_000) throw new Error(`still locked after 3 min: ${lock}`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (done()) return exe;
    fs.rmSync(stamp, { force: true });
    for (const f of [exe, path.join(tmp, 'fonts'), path.join(tmp, 'libGLESv2.so')]) {
      fs.rmSync(f, { recursive: true, force: true });
    }
    const sparticuz = (await import('@sparticuz/chromium')).default;
    const unpacked = await sparticuz.executablePath();
    if (unpacked !== exe) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, expected ${exe}`);
    fs.writeFileSync(stamp, version);
    return exe;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The project's own flags for every Chromium (never @sparticuz/chromium's Lambda flags), plus a test's
 * own (the scan's fake camera).
 */
export async function launch(extraArgs: readonly string[] = []): Promise<Browser> {
  const { path: executablePath, env } = await chromiumExecutable();
  return chromium.launch({
    executablePath,
    args: [...ARGS, ...extraArgs],
    env: env && { ...process.env, ...env },
  });
}

/** A fresh context (own storage) at a viewport; page errors fail loudly in the test output. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err.message));
  return { context, page };
}

/** Screenshots for a human to look at: written under /tmp/torre-screens (never committed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(os.tmpdir(), 'torre-screens');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
