// The phone's offline queue (CONTRACT §16). A complete, return or punch is written to IndexedDB first,
// with its `Idempotency-Key` and `client_time`, then sent; the queue is sent in order whenever the server
// answers again (the app open: iOS has no background sync). What the server refuses on a later replay
// is dropped and its Spanish reason shown once; what it cannot answer (no network, 5xx, 429) waits.
// The server binds a key to its request's body (CONTRACT §23), and a replay's body (with client_time)
// differs from the attempt made at once (without it): a replay answered `idempotencyKeyReused` means
// that first attempt took effect (only effects keep their key), so the action is done.
import { create } from 'zustand';
import { OFFLINE_REQUEST_TIMEOUT_MS, OFFLINE_RETRY_MS } from '@shared/constants';
import { ERR, UI_DRIVER } from '@shared/labels';
import { api, ApiError } from '../api';
import { outboxDb, type QueuedAction } from '../offline/outbox-db';
import { useReachability } from '../offline/reachability';
import { uuid } from '../offline/uuid';
import { resyncNow } from '../socket';
import { useSession } from './session';
import { onSessionEnd } from './session-end';

/** An action the server refused when it was replayed: shown until the driver dismisses it. */
export interface RefusedAction {
  key: string;
  label: string;
  detail: string;
  /** When the driver made it (epoch ms). */
  created_at: number;
}

export type NewAction = Pick<QueuedAction, 'kind' | 'path' | 'query' | 'body' | 'task_id' | 'label'>;

/** Sent at once (the server's answer), or kept for later (no answer now). A refusal throws its ApiError. */
export type SubmitOutcome<T> = { status: 'sent'; response: T } | { status: 'queued' };

interface OutboxState {
  /** This user's actions waiting for the server, oldest first. */
  pending: QueuedAction[];
  refused: RefusedAction[];
  /**
   * `actedAt`: when the driver acted, on the server's clock as this phone knows it (epoch ms). It is sent
   * as `client_time` only by a replay: an action answered at once happened now for the server too.
   */
  submit: <T>(action: NewAction, actedAt?: number) => Promise<SubmitOutcome<T>>;
  /** Sends what waits, in order; one run at a time. */
  flush: () => Promise<void>;
  dismissRefused: (key: string) => void;
}

type Result = { ok: true; response: unknown } | { ok: false; error: ApiError };

/** Keys whose submit() waits for the answer itself: their refusal is its caller's error, not a banner. */
const awaited = new Map<string, Result | null>();
let chain: Promise<void> = Promise.resolve();

const me = () => useSession.getState().user?.id ?? null;

function withoutClientTime(body: Record<string, unknown>): Record<string, unknown> {
  const { client_time: _, ...rest } = body;
  return rest;
}

/**
 * A replay's key is held by the attempt made at once, which the server did apply (its answer was lost):
 * the only other request ever sent under the key. Not a refusal: the action is done.
 */
const appliedAtOnce = (err: ApiError) => err.status === 422 && err.detail === ERR.idempotencyKeyReused;

/**
 * The server did not get to decide: no network, no answer in time, a proxy with no server behind it, or
 * too busy. The action waits for the next try.
 */
const notDecided = (err: ApiError) => [0, 408, 429, 502, 503, 504].includes(err.status);

async function sendAll(): Promise<void> {
  const userId = me();
  if (!userId) return;
  let replayed = false;
  for (const action of await outboxDb.list(userId)) {
    if (me() !== userId) return;
    let result: Result;
    // The attempt made the moment the driver acted leaves client_time out: the server's own time is
    // right, and the punch is not an offline one.
    const body = awaited.has(action.key) ? withoutClientTime(action.body) : action.body;
    try {
      const response = await api.post(action.path, body, action.query, {
        headers: { 'Idempotency-Key': action.key },
        timeoutMs: OFFLINE_REQUEST_TIMEOUT_MS,
      });
      result = { ok: true, response };
    } catch (err) {
      // Not an answer of the server (a bug): keep the action rather than lose it.
      if (!(err instanceof ApiError) || notDecided(err)) break;
      // The session ended (401/403): kept, sent after this driver's next login; the driver acting now
      // is being sent to the login screen (a silent error, not "saved offline").
      if (err.sessionEnded || err.status === 401) {
        if (awaited.has(action.key)) awaited.set(action.key, { ok: false, error: err });
        break;
      }
      // A server error: the driver acting now sees it (and may try again); a replay waits it out.
      if (err.status >= 500 && !awaited.has(action.key)) break;
      result =
        !awaited.has(action.key) && appliedAtOnce(err)
          ? { ok: true, response: null }
          : { ok: false, error: err };
    }
    await outboxDb.remove(action.seq!);
    useOutbox.setState((s) => ({ pending: s.pending.filter((a) => a.key !== action.key) }));
    if (awaited.has(action.key)) {
      awaited.set(action.key, result);
      continue;
    }
    replayed = true;
    if (!result.ok) {
      const refusal = result.error;
      useOutbox.setState((s) => ({
        refused: [
          ...s.refused,
          {
            key: action.key,
            label: action.label,
            detail: refusal.detail ?? UI_DRIVER.offline.refusedFallback,
            created_at: action.created_at,
          },
        ],
      }));
    }
  }
  // What was replayed changed the server behind the screen's back: reload what the screen shows.
  if (replayed) resyncNow();
}

export const useOutbox = create<OutboxState>((set) => ({
  pending: [],
  refused: [],

  async submit<T>(input: NewAction, actedAt = Date.now()): Promise<SubmitOutcome<T>> {
    const userId = me();
    if (!userId) throw new ApiError(401, null, true);
    const key = uuid();
    awaited.set(key, null);
    try {
      const action = await outboxDb.add({
        ...input,
        body: { ...input.body, client_time: new Date(actedAt).toISOString() },
        user_id: userId,
        key,
        created_at: Date.now(),
      });
      await useOutbox.getState().flush();
      const result = awaited.get(key);
      // Counted as waiting only once the attempt made now has failed: an answered action never shows.
      if (!result) {
        set((s) => ({ pending: s.pending.some((a) => a.key === key) ? s.pending : [...s.pending, action] }));
        return { status: 'queued' };
      }
      if (!result.ok) throw result.error;
      return { status: 'sent', response: result.response as T };
    } finally {
      awaited.delete(key);
    }
  },

  flush() {
    chain = chain.then(sendAll).catch((err: unknown) => console.warn('Error al enviar la cola', err));
    return chain;
  },

  dismissRefused(key) {
    set((s) => ({ refused: s.refused.filter((r) => r.key !== key) }));
  },
}));

/** Tasks with a complete / return waiting: they stay off the screen until the server has the action. */
export const closingTaskIds = (): Set<string> =>
  new Set(
    useOutbox
      .getState()
      .pending.filter((a) => a.kind !== 'punch' && a.task_id)
      .map((a) => a.task_id!),
  );

/** Loads this user's queue from the phone and sends it. */
async function resume(): Promise<void> {
  const userId = me();
  if (!userId) return;
  const pending = await outboxDb.list(userId);
  if (me() === userId) useOutbox.setState({ pending });
  if (pending.length) await useOutbox.getState().flush();
}

onSessionEnd(() => useOutbox.setState({ pending: [], refused: [] }));

let started = false;
/**
 * Starts the replay triggers once (main.tsx): a login or a page start with a session, the server
 * answering again, the browser back online or the app back in front, and a retry every few seconds
 * while something waits.
 */
export function initOutbox(): void {
  if (started || typeof indexedDB === 'undefined') return;
  started = true;
  const tryAgain = () => {
    if (useOutbox.getState().pending.length) void useOutbox.getState().flush();
  };
  if (useSession.getState().status !== 'anonymous') void resume().catch(() => undefined);
  useSession.subscribe((s, prev) => {
    if (s.user?.id && s.user.id !== prev.user?.id) void resume().catch(() => undefined);
  });
  useReachability.subscribe((s, prev) => {
    if (s.reachable && !prev.reachable) tryAgain();
  });
  window.addEventListener('online', tryAgain);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') tryAgain();
  });
  setInterval(tryAgain, OFFLINE_RETRY_MS);
}
