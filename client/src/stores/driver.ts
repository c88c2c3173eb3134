// The driver's own work (SPEC §2 Driver screen, CONTRACT §5, §9): which task is active and the Swap tasks
// they may claim. Loaded over REST, kept live by the task events of their rooms, polled every 5 s
// (SPEC §9) only while the socket is down. The active task itself lives in one store, the board's
// (stores/tasks.ts): the active card and the board's card are the same task, whatever changes it.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { CompletionProof, MessageResponse, Task } from '@shared/schemas';
import type { ReturnReason } from '@shared/enums';
import { POLL_MS } from '@shared/constants';
import { TOAST, UI_DRIVER, taskLabel } from '@shared/labels';
import { byUrgency } from '@shared/urgency';
import { api, ApiError, errorText } from '../api';
import { toastError } from '../toast';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { forgetSnapshot, readSnapshot, writeSnapshot } from '../offline/snapshot';
import { closingTaskIds, useOutbox, type NewAction } from './outbox';
import { serverNow } from './timeclock';
import { useTasks } from './tasks';
import { useSession } from './session';
import { onSessionEnd } from './session-end';

type LoadKind = 'active' | 'swap';

interface DriverState {
  /** The id of the en_proceso task assigned to me (its data: useTasks); null when none. */
  activeId: string | null;
  activeLoaded: boolean;
  /** Pool Swap tasks by urgency (CONTRACT §16: high first, then the oldest); never held ones. */
  swap: Task[];
  swapLoaded: boolean;
  /**
   * Loads whose failure was already toasted in the current outage (CONTRACT §16: no error toast repeats
   * while offline); a load that succeeds takes its kind out again.
   */
  failing: LoadKind[];
  loadActive: () => Promise<void>;
  loadSwap: () => Promise<void>;
  /** A task event of my rooms: places the task where it now belongs (active, swap list or nowhere). */
  applyTask: (task: Task) => void;
  /** `task:removed` / `task:deleted`: the task left my view. */
  dropTask: (id: string) => void;
  /**
   * CONTRACT §16: queued on the phone and sent (now, or when the server answers again), whether tapped on
   * the active card or dragged on the board (`task`, default the active one). Resolve with the server's
   * message, or null when kept for later; throw ApiError when the server refuses at once.
   */
  complete: (task?: Task, proof?: CompletionProof) => Promise<string | null>;
  returnTask: (reason: ReturnReason | null, task?: Task) => Promise<string | null>;
  /** Each resolves with the server's message and throws ApiError on refusal. */
  selfAssign: (id: string) => Promise<string>;
}

const initial = {
  activeId: null as string | null,
  activeLoaded: false,
  swap: [] as Task[],
  swapLoaded: false,
  failing: [] as LoadKind[],
};

const me = () => useSession.getState().user?.id ?? null;
const OFFLINE = UI_DRIVER.offline;
/** How a queued action names its task if the server later refuses it. */
const named = (t: Task) =>
  `${taskLabel({ title: t.title, trailerId: t.trailer_id })} (${t.origin} → ${t.destination})`;

const isMyActive = (t: Task) => t.status === 'en_proceso' && t.assigned_to !== null && t.assigned_to === me();

/** The active task as the board's store holds it: mine, in progress, and not being closed on this phone. */
function pickActive(activeId: string | null, byId: Record<string, Task>): Task | null {
  const task = activeId === null ? undefined : byId[activeId];
  return task && isMyActive(task) && !closingTaskIds().has(task.id) ? task : null;
}

/** The driver's active task, or null (outside React). */
export const activeTask = (): Task | null =>
  pickActive(useDriver.getState().activeId, useTasks.getState().byId);

/** The driver's active task, or null. */
export function useActiveTask(): Task | null {
  const activeId = useDriver((s) => s.activeId);
  return useTasks((s) => pickActive(activeId, s.byId));
}

/** The id the driver store keeps for a task now in the board's store: its own if it is my active task. */
function activeIdAfter(activeId: string | null, id: string): string | null {
  const task = useTasks.getState().byId[id];
  if (task && isMyActive(task) && !closingTaskIds().has(id)) return id;
  return activeId === id ? null : activeId;
}

/** CONTRACT §16: the screen opens with the active task as last seen on this phone (no network needed). */
function lastKnown() {
  const { active } = readSnapshot(me());
  if (active === undefined) return initial;
  if (active) useTasks.getState().apply(active);
  return { ...initial, activeId: active?.id ?? null, activeLoaded: true };
}
const isClaimableSwap = (t: Task) =>
  t.vehicle_type === 'swap' && t.status === 'bolsa_trabajo' && t.assigned_to === null && !t.on_hold;
const recovered = (failing: LoadKind[], kind: LoadKind) =>
  failing.includes(kind) ? failing.filter((k) => k !== kind) : failing;

/** Keeps `next` unless the store already holds a newer version of the same task (a late event). */
const fresher = (current: Task | undefined, next: Task): boolean =>
  !current || next.version >= current.version;

export const useDriver = create<DriverState>((set, get) => ({
  ...lastKnown(),

  async loadActive() {
    try {
      const task = await api.get<Task>('/tasks/my-active');
      // Completed or returned on this phone, not yet told to the server: it is done for the driver.
      if (closingTaskIds().has(task.id))
        return set((s) => ({ activeId: null, activeLoaded: true, failing: recovered(s.failing, 'active') }));
      useTasks.getState().apply(task);
      set((s) => ({
        activeId: activeIdAfter(s.activeId, task.id),
        activeLoaded: true,
        failing: recovered(s.failing, 'active'),
      }));
    } catch (err) {
      // SPEC §7: a 404 means no active task.
      if (err instanceof ApiError && err.status === 404)
        return set((s) => ({ activeId: null, activeLoaded: true, failing: recovered(s.failing, 'active') }));
      throw err;
    }
  },

  async loadSwap() {
    const swap = await api.get<Task[]>('/tasks/swap-available');
    set((s) => ({
      swap: swap.filter((t) => !t.on_hold).sort(byUrgency(serverNow())),
      swapLoaded: true,
      failing: recovered(s.failing, 'swap'),
    }));
  },

  applyTask(task) {
    // The task's data goes to its one store (a late event, older than what it holds, changes nothing).
    useTasks.getState().apply(task);
    set((s) => {
      const activeId = activeIdAfter(s.activeId, task.id);
      const current = s.swap.find((t) => t.id === task.id);
      let swap = s.swap;
      if (!fresher(current, task)) return { activeId };
      if (isClaimableSwap(task))
        swap = [task, ...s.swap.filter((t) => t.id !== task.id)].sort(byUrgency(serverNow()));
      else if (current) swap = s.swap.filter((t) => t.id !== task.id);
      return { activeId, swap };
    });
  },

  dropTask(id) {
    set((s) => ({
      activeId: s.activeId === id ? null : s.activeId,
      swap: s.swap.filter((t) => t.id !== id),
    }));
  },

  async complete(task = activeTask() ?? undefined, proof: CompletionProof = {}) {
    if (!task) return '';
    return closeOwn(task, 'finalizada', {
      kind: 'complete',
      path: `/tasks/${task.id}/complete`,
      // CONTRACT §20: the proof travels in the body, queued with it offline (client_time added on replay).
      body: { ...proof },
      label: OFFLINE.completeLabel(named(task)),
    });
  },

  async returnTask(reason, task = activeTask() ?? undefined) {
    if (!task) return '';
    return closeOwn(task, 'bolsa_trabajo', {
      kind: 'return',
      path: `/tasks/${task.id}/return`,
      body: reason ? { reason } : {},
      label: OFFLINE.returnLabel(named(task)),
    });
  },

  async selfAssign(id) {
    try {
      const { message } = await api.post<MessageResponse>(`/tasks/${id}/self-assign`);
      // SPEC §4: the claimed task leaves the list; it is now the active task.
      set((s) => ({ swap: s.swap.filter((t) => t.id !== id) }));
      await get()
        .loadActive()
        .catch(() => undefined);
      return message;
    } catch (err) {
      // Claimed by someone else meanwhile: it is not available any more.
      if (err instanceof ApiError && err.status === 409)
        set((s) => ({ swap: s.swap.filter((t) => t.id !== id) }));
      throw err;
    }
  },
}));

/**
 * The one path that ends the driver's own task (CONTRACT §16): through the outbox (its Idempotency-Key,
 * queued without a server). Once the server took it, or the phone keeps it, the task leaves the active
 * card and its board card moves; a refusal (thrown) leaves both as they were.
 */
async function closeOwn(
  task: Task,
  to: 'finalizada' | 'bolsa_trabajo',
  action: Omit<NewAction, 'task_id' | 'query'>,
): Promise<string | null> {
  const outcome = await useOutbox
    .getState()
    .submit<MessageResponse>({ ...action, task_id: task.id }, serverNow());
  useTasks.getState().closedHere(task.id, to);
  useDriver.setState((s) => ({ activeId: s.activeId === task.id ? null : s.activeId }));
  return outcome.status === 'sent' ? outcome.response.message : null;
}

/**
 * A driver's complete or return as the screen runs it: the server's message as the toast (or, kept on the
 * phone without a server, that it will be sent), else its detail / the SPEC §8 fallback. A 409 means the
 * task changed under us (reassigned, already returned): the active task is loaded again.
 */
export async function closeOwnTask(action: () => Promise<string | null>, fallback: string): Promise<void> {
  try {
    const message = await action();
    if (message === null) toast(UI_DRIVER.offline.queued);
    else toast.success(message);
  } catch (err) {
    toastError(err, fallback);
    if (err instanceof ApiError && err.status === 409)
      void useDriver
        .getState()
        .loadActive()
        .catch(() => undefined);
    throw err;
  }
}

// The last active task seen is kept on the phone (CONTRACT §16), whichever store changed it.
let snapshotted: Task | null | undefined;
function keepSnapshot(): void {
  const userId = me();
  if (!userId || !useDriver.getState().activeLoaded) return;
  const active = activeTask();
  if (active === snapshotted) return;
  snapshotted = active;
  writeSnapshot(userId, { active });
}
useDriver.subscribe(keepSnapshot);
useTasks.subscribe(keepSnapshot);

onSessionEnd((userId) => {
  if (userId) forgetSnapshot(userId);
  snapshotted = undefined;
  useDriver.setState(initial);
});
// A login (or another driver on the same phone) starts from what this phone last saw of them.
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id && s.user) useDriver.setState(lastKnown());
});

/**
 * SPEC §8 loading errors: the server's detail or the fallback; a 401 (session ended) is silent. Once per
 * outage (CONTRACT §16): a dead link polled every 5 s toasts its first failure only, until a load of
 * that kind succeeds again.
 */
function loadWithToast(kind: LoadKind, load: () => Promise<void>, fallback: string) {
  return () =>
    void load().catch((err: unknown) => {
      if (err instanceof ApiError && (err.sessionEnded || err.status === 401)) return;
      // No server: the offline indicator says so (CONTRACT §16), and the last known state stays.
      if (err instanceof ApiError && err.status === 0) return;
      const { failing } = useDriver.getState();
      if (failing.includes(kind)) return;
      useDriver.setState({ failing: [...failing, kind] });
      toast.error(errorText(err, fallback), { id: fallback });
    });
}

const loadActive = loadWithToast(
  'active',
  () => useDriver.getState().loadActive(),
  TOAST.loadActiveTaskError,
);
const loadSwap = loadWithToast('swap', () => useDriver.getState().loadSwap(), TOAST.loadSwapError);

/** Mount once on the driver screen: load + resync on (re)connect, task events, fallback polling. */
export function useDriverFeed(): void {
  useResync(() => {
    loadActive();
    loadSwap();
  });
  const apply = ({ task }: { task: Task }) => useDriver.getState().applyTask(task);
  const drop = ({ id }: { id: string }) => useDriver.getState().dropTask(id);
  useSocketEvent('task:created', apply);
  useSocketEvent('task:updated', apply);
  useSocketEvent('task:removed', drop);
  useSocketEvent('task:deleted', drop);
  usePollingFallback(loadActive, POLL_MS.activeTask);
  usePollingFallback(loadSwap, POLL_MS.swapTasks);
}
