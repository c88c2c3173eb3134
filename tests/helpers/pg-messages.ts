// What goes over the wire to PostgreSQL while some work runs: the texts of every statement and message
// the driver sends (nothing on SQLite), or the writes to its sockets. For tests of how many round trips
// and system calls a path costs.
import { vi } from 'vitest';
import net from 'node:net';
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

/**
 * The writes to PostgreSQL's sockets while some work runs, per connection in the order they were written
 * (each write's bytes as latin1 text: the statements' texts and parameters can be found in it). For tests
 * of how many system calls a path costs.
 */
export async function socketWritesOf(work: () => Promise<unknown>): Promise<string[][]> {
  const port = Number(new URL(process.env.DATABASE_URL ?? 'postgres://localhost:5432').port || 5432);
  const writes = new Map<net.Socket, string[]>();
  const record = (socket: net.Socket, chunks: Buffer[]) => {
    if (socket.remotePort !== port) return;
    if (!writes.has(socket)) writes.set(socket, []);
    writes.get(socket)!.push(Buffer.concat(chunks).toString('latin1'));
  };
  const proto = net.Socket.prototype as unknown as {
    _write(chunk: Buffer, encoding: string, cb: () => void): void;
    _writev(chunks: { chunk: Buffer }[], cb: () => void): void;
  };
  const one = proto._write;
  const many = proto._writev;
  const spyOne = vi.spyOn(proto, '_write').mockImplementation(function (this: net.Socket, chunk, ...rest) {
    record(this, [chunk]);
    return one.call(this, chunk, ...rest);
  });
  const spyMany = vi.spyOn(proto, '_writev').mockImplementation(function (this: net.Socket, chunks, cb) {
    record(
      this,
      chunks.map((c) => c.chunk),
    );
    return many.call(this, chunks, cb);
  });
  try {
    await work();
  } finally {
    spyOne.mockRestore();
    spyMany.mockRestore();
  }
  return [...writes.values()];
}
