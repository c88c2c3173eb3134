// jsdom test helpers: a scripted fetch and JSON answers.
import { vi } from 'vitest';

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Replaces fetch with a mock answering each call through `answer(path, init)`. */
export function mockFetch(answer: (path: string, init: RequestInit) => Response | Promise<Response>) {
  const fn = vi.fn((input: string | URL | Request, init: RequestInit = {}) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api/, '');
    return Promise.resolve(answer(path, init));
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The JSON body the mock received on its n-th call. */
export const sentBody = (fn: ReturnType<typeof mockFetch>, n = 0): unknown =>
  JSON.parse(String(fn.mock.calls[n][1]?.body ?? 'null'));
