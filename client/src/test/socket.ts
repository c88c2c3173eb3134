// jsdom test helper: socket.io-client's Socket as far as client/src/socket.ts uses it.
import { vi } from 'vitest';

/** A stand-in for socket.io-client's Socket: tests fire the events the server would. */
export class FakeSocket {
  listeners = new Map<string, ((...a: unknown[]) => void)[]>();
  any: ((event: string, ...a: unknown[]) => void)[] = [];
  connect = vi.fn();
  disconnect = vi.fn();
  constructor(public auth: (cb: (d: { token: string }) => void) => void = () => {}) {}
  on(event: string, fn: (...a: unknown[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  once(event: string, fn: (...a: unknown[]) => void) {
    const wrapped = (...a: unknown[]) => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((f) => f !== wrapped),
      );
      fn(...a);
    };
    return this.on(event, wrapped);
  }
  onAny(fn: (event: string, ...a: unknown[]) => void) {
    this.any.push(fn);
  }
  removeAllListeners() {
    this.listeners.clear();
    this.any = [];
  }
  /** The server (or the transport) fires an event. */
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.listeners.get(event) ?? []) fn(...args);
    if (!['connect', 'disconnect', 'connect_error'].includes(event))
      for (const fn of this.any) fn(event, ...args);
  }
  handshakeToken() {
    let token = '';
    this.auth((d) => (token = d.token));
    return token;
  }
}

/**
 * client/src/socket.ts's hooks standing still, for `vi.mock('../../socket', …)`: a view loads once at mount,
 * never polls, and the handlers it subscribes are kept in `handlers` (when given) for the test to fire.
 */
export async function stillSocketHooks(handlers?: Map<string, (payload: unknown) => void>) {
  const { useEffect, useRef } = await import('react');
  return {
    useResync: (load: () => void) => {
      const ref = useRef(load);
      useEffect(() => void ref.current(), []);
    },
    usePollingFallback: () => {},
    useSocketEvent: (event: string, handler: (payload: unknown) => void) => {
      handlers?.set(event, handler);
    },
  };
}
