// What goes over the wire to PostgreSQL while some work runs: the texts of every statement and message
// the driver sends (nothing on SQLite). For tests of how many round trips a path costs.
import { vi } from 'vitest';
import pg from 'pg';

export async function messagesOf(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const config = args[0] as string | { text: string };
    sent.push(typeof config === 'string' ? config : config.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}
