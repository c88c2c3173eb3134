// The board's tasks (SPEC §2 Dashboard, CONTRACT §5, §9), for staff and for the driver's board alike:
// whatever GET /tasks answers for this user, kept live by the task events of their rooms.
// - every (re)connect reloads the whole list over REST; SPEC §9's 3 s polling only while the socket is down;
// - an event whose `version` is not newer than the one known is ignored (late or duplicated pushes);
// - `task:deleted` leaves a tombstone (a deleted task never comes back); `task:removed` only drops the
//   card, remembering its version, so a later newer event may bring it back;
// - the assignee's presence (`assignee_online`, `assignee_offline_since`, CONTRACT §15) follows every
//   `drivers:updated` without touching `version`;
// - moves are optimistic and rolled back when the server refuses them; a drag sends the card's version and
//   a 409 (the task changed meanwhile) also reloads the board.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { TaskStatus } from '@shared/enums';
import type { CreateTaskInput, MessageResponse, OnlineDriver, Task, UpdateTaskInput } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { TOAST } from '@shared/labels';
import { api, ApiError } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { closingTaskIds } from './outbox';
import { onSessionEnd } from './session-end';
import { serverNow } from './timeclock';

export interface Assignee {
  id: string;
  name: string;
}

interface TasksState {
  byId: Record<string, Task>;
  loaded: boolean;
  /** Replaces the list with the server's (keeping what events changed while the request was out). */
  load: () => Promise<void>;
  /** task:created / task:updated, and every answer that carries a task. */
  apply: (task: Task) => void;
  /** task:deleted: gone for good. */
  deleted: (id: string) => void;
  /** task:removed: left this user's view (claimed by another driver, reassigned away). */
  removed: (id: string) => void;

  create: (input: CreateTaskInput) => Promise<Task>;
  /** Field edits from the edit dialog (not optimistic: the dialog waits for the answer). The patch
   *  carries the `version` the dialog started from: a task changed meanwhile is refused (409). */
  edit: (id: string, patch: UpdateTaskInput) => Promise<Task>;
  /**
   * A drag: optimistic, rolled back when refused. `to` en_proceso needs the driver. The PUT carries the
   * card's `version` (`version`, else the one on the board now), so a card changed meanwhile is refused
   * (409, CONTRACT §5): it goes back and the board reloads to show the task as it is.
   */
  move: (id: string, to: TaskStatus, driver?: Assignee, version?: number) => Promise<Task>;
  remove: (id: string) => Promise<void>;
  /** Staff 'Retener' a pool task (CONTRACT §15), with an optional reason. */
  putOnHold: (id: string, reason: string | null) => Promise<Task>;
  /** Staff 'Liberar' a held task. */
  releaseHold: (id: string) => Promise<Task>;
  /** `drivers:updated`: who is online now. An assignee missing from the list is offline since the
   *  moment this noticed (when it was online before); never a new `version`. */
  presence: (online: readonly Pick<OnlineDriver, 'id'>[]) => void;
  /** The driver's 'Asignarme' (POST self-assign), optimistic. Resolves with the server's message. */
  selfAssign: (id: string, me: Assignee) => Promise<string>;
  /**
   * The driver closed their own task on this phone (completed, or returned to the pool: stores/driver.ts),
   * and the server took it or the outbox keeps it for later: the card shows where it is going until the
   * server's version comes.
   */
  closedHere: (id: string, to: 'finalizada' | 'bolsa_trabajo') => void;
  reset: () => void;
}

/** Highest version seen of every task, on the board or not (a removed task may come back newer). */
const versions = new Map<string, number>();
/** Deleted tasks: no event may resurrect them. */
const tombstones = new Set<string>();
/** Tasks with a mutation in flight: a resync answer must not undo their optimistic state. */
const pending = new Map<string, number>();
/** Ids changed by events while each load was out, per load; and the newest load applied. */
const loadsInFlight = new Map<number, Set<string>>();
let loadSeq = 0;
let appliedSeq = 0;

const touch = (id: string) => {
  for (const ids of loadsInFlight.values()) ids.add(id);
};
const hold = (id: string) => pending.set(id, (pending.get(id) ?? 0) + 1);
const release = (id: string) => {
  const n = (pending.get(id) ?? 1) - 1;
  if (n > 0) pending.set(id, n);
  else pending.delete(id);
};

const initial = { byId: {} as Record<string, Task>, loaded: false };

export const useTasks = create<TasksState>((set, get) => {
  const without = (id: string) =>
    set((s) => {
      if (!(id in s.byId)) return s;
      const byId = { ...s.byId };
      delete byId[id];
      return { byId };
    });

  /** Shows `next` at once; on failure puts `before` back unless something newer replaced it meanwhile. */
  async function optimistic<T>(id: string, change: (t: Task) => Task, send: () => Promise<T>): Promise<T> {
    const before = get().byId[id];
    if (!before) throw new ApiError(404, null);
    const shown = change(before);
    hold(id);
    set((s) => ({ byId: { ...s.byId, [id]: shown } }));
    try {
      return await send();
    } catch (err) {
      // Undo unless the server sent a newer version meanwhile (a presence refresh of the shown card
      // is not one: it keeps the version).
      set((s) => {
        const now = s.byId[id];
        return now && now.version <= before.version ? { byId: { ...s.byId, [id]: before } } : s;
      });
      throw err;
    } finally {
      release(id);
    }
  }

  const moved = (t: Task, to: TaskStatus, driver: Assignee | null): Task => {
    // The server's clock, as every instant the board shows (Finalizada is ordered by it).
    const at = new Date(serverNow()).toISOString();
    return {
      ...t,
      status: to,
      status_since: to === t.status ? t.status_since : at,
      assigned_to: to === 'bolsa_trabajo' ? null : (driver?.id ?? t.assigned_to),
      assigned_to_name: to === 'bolsa_trabajo' ? null : (driver?.name ?? t.assigned_to_name),
      completed_at: to === 'finalizada' ? at : null,
      return_reason: null,
      // Staff assigning a held task by hand release it (CONTRACT §15).
      on_hold: to === 'bolsa_trabajo' && t.on_hold,
      hold_reason: to === 'bolsa_trabajo' ? t.hold_reason : null,
      hold_source: to === 'bolsa_trabajo' ? t.hold_source : null,
      // The presence of a new (or no) assignee arrives with the server's answer.
      ...(to === 'bolsa_trabajo' || (driver && driver.id !== t.assigned_to)
        ? { assignee_online: null, assignee_offline_since: null }
        : {}),
    };
  };

  return {
    ...initial,

    async load() {
      const seq = ++loadSeq;
      const touched = new Set<string>();
      loadsInFlight.set(seq, touched);
      try {
        const list = await api.get<Task[]>('/tasks');
        // An older request answering after a newer one has nothing to add.
        if (seq < appliedSeq) return;
        appliedSeq = seq;
        set((s) => {
          const byId: Record<string, Task> = {};
          for (const t of list) {
            if (tombstones.has(t.id)) continue;
            byId[t.id] = t;
          }
          // What events or the user's own moves changed after the request left is newer than the answer; so is
          // a task this phone completed or returned while the server could not hear it (the outbox).
          for (const id of new Set([...touched, ...pending.keys(), ...closingTaskIds()])) {
            const mine = s.byId[id];
            const keep = pending.has(id) || closingTaskIds().has(id);
            if (mine && (!byId[id] || keep || byId[id].version <= mine.version)) byId[id] = mine;
            else if (!mine && touched.has(id)) delete byId[id];
          }
          // Only the versions now shown count as seen: a move's card kept over a newer answer must still
          // take the move's own answer (or its push) when it comes.
          for (const id in byId)
            if (byId[id].version > (versions.get(id) ?? -1)) versions.set(id, byId[id].version);
          return { byId, loaded: true };
        });
      } finally {
        loadsInFlight.delete(seq);
      }
    },

    apply(task) {
      if (tombstones.has(task.id)) return;
      const known = versions.get(task.id);
      if (known !== undefined && task.version <= known) return;
      versions.set(task.id, task.version);
      touch(task.id);
      set((s) => ({ byId: { ...s.byId, [task.id]: task } }));
    },

    deleted(id) {
      tombstones.add(id);
      touch(id);
      without(id);
    },

    removed(id) {
      touch(id);
      without(id);
    },

    async create(input) {
      const task = await api.post<Task>('/tasks', input);
      get().apply(task);
      return task;
    },

    async edit(id, patch) {
      const task = await api.put<Task>(`/tasks/${id}`, patch);
      get().apply(task);
      return task;
    },

    async move(id, to, driver, version) {
      const body: UpdateTaskInput = {
        status: to,
        ...(to === 'en_proceso' ? { assigned_to: driver?.id } : {}),
        version: version ?? get().byId[id]?.version,
      };
      let task: Task;
      try {
        task = await optimistic(
          id,
          (t) => moved(t, to, driver ?? null),
          () => api.put<Task>(`/tasks/${id}`, body),
        );
      } catch (err) {
        // The task is not what the card showed (changed meanwhile, taken, finished): the card is back
        // where it was; the reload shows it as it is now, whatever a push may have missed.
        if (err instanceof ApiError && err.status === 409)
          void get().load().then(reportLoadOk, reportLoadError);
        throw err;
      }
      get().apply(task);
      return task;
    },

    async remove(id) {
      await api.del<MessageResponse>(`/tasks/${id}`);
      get().deleted(id);
    },

    async putOnHold(id, reason) {
      const task = await api.put<Task>(`/tasks/${id}`, { on_hold: true, hold_reason: reason || null });
      get().apply(task);
      return task;
    },

    async releaseHold(id) {
      const task = await api.put<Task>(`/tasks/${id}`, { on_hold: false });
      get().apply(task);
      return task;
    },

    presence(online) {
      const ids = new Set(online.map((d) => d.id));
      const noticed = new Date(serverNow()).toISOString();
      set((s) => {
        let byId: Record<string, Task> | null = null;
        for (const t of Object.values(s.byId)) {
          if (!t.assigned_to) continue;
          const isOnline = ids.has(t.assigned_to);
          if (t.assignee_online === isOnline) continue;
          byId ??= { ...s.byId };
          byId[t.id] = {
            ...t,
            assignee_online: isOnline,
            assignee_offline_since: isOnline ? null : (t.assignee_offline_since ?? noticed),
          };
        }
        return byId ? { byId } : s;
      });
    },

    async selfAssign(id, me) {
      // The new state arrives with task:updated (or the next resync): the answer is only a message.
      const { message } = await optimistic(
        id,
        (t) => moved(t, 'en_proceso', me),
        () => api.post<MessageResponse>(`/tasks/${id}/self-assign`),
      );
      return message;
    },

    closedHere(id, to) {
      set((s) => (s.byId[id] ? { byId: { ...s.byId, [id]: moved(s.byId[id], to, null) } } : s));
    },

    reset() {
      versions.clear();
      tombstones.clear();
      pending.clear();
      loadsInFlight.clear();
      // A list still on its way belongs to the session that ended: drop it when it lands.
      appliedSeq = loadSeq + 1;
      set(initial);
    },
  };
});

onSessionEnd(() => useTasks.getState().reset());

// ---- selectors ------------------------------------------------------------------------------

const newestFirst = (a: Task, b: Task) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
const lastFinishedFirst = (a: Task, b: Task) =>
  (b.completed_at ?? b.status_since).localeCompare(a.completed_at ?? a.status_since) || newestFirst(a, b);

/**
 * A column's cards: the pool and En Proceso newest first (a new task is prepended, SPEC §7; the pool's
 * column orders them by urgency, KanbanColumn.useColumn), Finalizada
 * by completion, latest first. Use with `useShallow`: unchanged tasks keep their identity, so a push that
 * changes one card re-renders that card only.
 */
export const selectColumn =
  (status: TaskStatus) =>
  (s: Pick<TasksState, 'byId'>): Task[] =>
    Object.values(s.byId)
      .filter((t) => t.status === status)
      .sort(status === 'finalizada' ? lastFinishedFirst : newestFirst);

// ---- live feed ------------------------------------------------------------------------------

let failing = false;
/**
 * SPEC §8 'Error al cargar los datos' for the board's loads: once per run of failures (the 3 s polling
 * would otherwise repeat it every 3 s while the server is away); silent when the session ended (401), and
 * when the server cannot be reached at all — the header's link indicator and, on the driver's phone, the
 * offline bar already say so (CONTRACT §16: one persistent indicator, no error toast).
 */
export function reportLoadError(err: unknown): void {
  console.warn('Error al cargar los datos del tablero', err);
  if (failing || (err instanceof ApiError && (err.sessionEnded || err.status === 0))) return;
  failing = true;
  toast.error(TOAST.loadDataError);
}
export const reportLoadOk = (): void => {
  failing = false;
};

const loadTasks = () => useTasks.getState().load().then(reportLoadOk, reportLoadError);

/** Mount where a board is shown (staff board, driver board): load + resync, pushes, fallback polling. */
export function useTasksFeed(): void {
  useResync(loadTasks);
  useSocketEvent('task:created', ({ task }) => useTasks.getState().apply(task));
  useSocketEvent('task:updated', ({ task }) => useTasks.getState().apply(task));
  useSocketEvent('task:deleted', ({ id }) => useTasks.getState().deleted(id));
  useSocketEvent('task:removed', ({ id }) => useTasks.getState().removed(id));
  useSocketEvent('drivers:updated', ({ online_drivers }) => useTasks.getState().presence(online_drivers));
  usePollingFallback(loadTasks, POLL_MS.dashboard);
}
