// SIGTERM (CONTRACT §14): the real server stops accepting, answers every request in flight, sends its
// sockets to reconnect, closes the database cleanly and exits 0. Here it gets SIGTERM in the middle of
// 300 concurrent task creations: afterwards the database holds exactly the tasks answered 201 — no
// acknowledged write lost, no committed write left unanswered — and the WAL was checkpointed into it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { io as ioClient } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { adminToken, cleanup, startServer, taskBody, tempDir } from './harness';

afterEach(cleanup);

const TOTAL = 300;
const CLIENTS = 100;
const TERM_AFTER = 100; // answers before the SIGTERM

type Outcome = { status: number; id?: string } | { error: string };

describe('SIGTERM in the middle of a burst of writes', () => {
  it('answers every committed write, loses none, tells sockets to reconnect and exits 0', async () => {
    const dir = tempDir('term');
    const db = path.join(dir, 'torre.db');
    const server = await startServer({ env: { DB_PATH: db } });
    const token = await adminToken(server.url);

    // A board's socket: it must see its transport close (the client then reconnects by itself), not a
    // server-side disconnect (after which a Socket.IO client stays down).
    const socket = ioClient(server.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const socketGone = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    // 300 writes from 100 clients at once, each sending its next one as soon as the previous is answered
    // (keep-alive), so that whenever SIGTERM lands, dozens are in flight: read, batched, or committing.
    let answered = 0;
    let termSent = false;
    let next = 0;
    const outcomes: Outcome[] = [];
    const client = async () => {
      while (next < TOTAL) {
        const i = next++;
        try {
          const res = await fetch(`${server.url}/api/tasks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify(taskBody(`TERM-${i}`)),
          });
          const body = (await res.json()) as { id?: string };
          outcomes.push({ status: res.status, id: body.id });
          if (++answered === TERM_AFTER && !termSent) {
            termSent = true;
            server.child.kill('SIGTERM');
          }
        } catch (err) {
          // Refused or reset before the server read it: never acknowledged, and (below) never written.
          outcomes.push({ error: String((err as Error).cause ?? err) });
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(termSent).toBe(true);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await socketGone).toBe('transport close');
    socket.close();

    const created = outcomes.filter(
      (o): o is { status: number; id: string } => 'status' in o && o.status === 201,
    );
    const otherAnswers = outcomes.filter((o) => 'status' in o && o.status !== 201);
    expect(otherAnswers).toEqual([]); // every answer is a 201: no 5xx while shutting down
    expect(created.length).toBeGreaterThanOrEqual(TERM_AFTER);

    // The WAL was checkpointed into the file and removed: the file alone is the whole database.
    expect(fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0).toBe(0);
    const file = new Database(db, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = file.prepare("SELECT id FROM tasks WHERE trailer_id LIKE 'TERM-%'").all() as {
        id: string;
      }[];
      // Exactly the tasks answered 201: none acknowledged and lost, none written and unanswered.
      expect(rows.length).toBe(created.length);
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(created.map((c) => c.id)));
    } finally {
      file.close();
    }
  });
});
