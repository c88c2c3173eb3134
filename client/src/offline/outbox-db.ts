// The phone's queue of actions made without a server (CONTRACT §16), kept in IndexedDB so a reload, a
// closed tab or a dead battery loses none. The auto-increment key is the order they are replayed in.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Query } from '../api';

export type QueuedKind = 'complete' | 'return' | 'punch';

export interface QueuedAction {
  /** The replay order (IndexedDB's key); absent until stored. */
  seq?: number;
  /** Whose action it is: another driver logging in on the same phone neither sends nor sees it. */
  user_id: string;
  /** The `Idempotency-Key` (a UUID): a replay of an action the server already applied changes nothing. */
  key: string;
  kind: QueuedKind;
  /** The POST path under /api, its query, and the JSON body (with `client_time`). */
  path: string;
  query?: Query;
  body: Record<string, unknown>;
  /** The task a complete / return is about: it stays off the screen while the action waits. */
  task_id: string | null;
  /** What the driver did, in words: shown if the server refuses it later. */
  label: string;
  /** When it was made (epoch ms, this device's clock). */
  created_at: number;
}

interface OutboxDb extends DBSchema {
  actions: { key: number; value: QueuedAction; indexes: { by_user: string } };
}

const DB_NAME = 'torre-offline';
const STORE = 'actions';
let opening: Promise<IDBPDatabase<OutboxDb>> | null = null;

function database(): Promise<IDBPDatabase<OutboxDb>> {
  opening ??= openDB<OutboxDb>(DB_NAME, 1, {
    upgrade(db) {
      const store = db.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
      store.createIndex('by_user', 'user_id');
    },
  });
  return opening;
}

export const outboxDb = {
  async add(action: QueuedAction): Promise<QueuedAction> {
    const seq = await (await database()).add(STORE, action);
    return { ...action, seq };
  },
  /** The user's actions in the order they were made. */
  async list(userId: string): Promise<QueuedAction[]> {
    const rows = await (await database()).getAllFromIndex(STORE, 'by_user', userId);
    return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  },
  async remove(seq: number): Promise<void> {
    await (await database()).delete(STORE, seq);
  },
};
