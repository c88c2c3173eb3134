// The driver's own work (SPEC §2 Driver screen, CONTRACT §5, §9): the active task and the Swap tasks
// they may claim. Loaded over REST, kept live by the task events of their rooms, polled every 5 s
// (SPEC §9) only while the socket is down.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { MessageResponse, Task } from '@shared/schemas';
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
  /** The en_proceso task assigned to me; null when none. */
  active: Task | null;
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
  complete: (task?: Task) => Promise<string | null>;
  returnTask: (reason: ReturnReason | null, task?: Task) => Promise<string | null>;
  /** Each resolves with the server's message and throws ApiError on refusal. */
  selfAssign: (id: string) => Promise<string>;
}

const initial = {
  active: null as Task | null,
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

/** CONTRACT §16: the screen opens with the active task as last seen on this phone (no network needed). */
function lastKnown() {
  const { active } = readSnapshot(me());
  return active === undefined ? initial : { ...initial, active, activeLoaded: true };
}
const isMyActive = (t: Task) => t.status === 'en_proceso' && t.assigned_to !== null && t.assigned_to === me();
const isClaimableSwap = (t: Task) =>
  t.vehicle_type === 'swap' && t.status === 'bolsa_trabajo' && t.assigned_to === null && !t.on_hold;
const recovered = (failing: LoadKind[], kind: LoadKind) =>
  failing.includes(kind) ? failing.filter((k) => k !== kind) : failing;

/** Keeps `next` unless the store already holds a newer version of the same task (a late event). */
const fresher = (current: Task | undefined | null, next: Task): boolean =>
  !current || current.id !== next.id || next.version >= current.version;

export const useDriver = create<DriverState>((set, get) => ({
  ...lastKnown(),

  async loadActive() {
    try {
      const task = await api.get<Task>('/tasks/my-active');
      // Completed or returned on this phone, not yet told to the server: it is done for the driver.
      if (closingTaskIds().has(task.id))
        return set((s) => ({ active: null, activeLoaded: true, failing: recovered(s.failing, 'active') }));
      set((s) => ({
        active: fresher(s.active, task) ? task : s.active,
        activeLoaded: true,
        failing: recovered(s.failing, 'active'),
      }));
    } catch (err) {
      // SPEC §7: a 404 means no active task.
      if (err instanceof ApiError && err.status === 404)
        return set((s) => ({ active: null, activeLoaded: true, failing: recovered(s.failing, 'active') }));
      throw err;
    }
  },

  async loadSwap() {
    const swap = await api.get<Task[]>('/tasks/swap-available');
    set((s) => ({
      swap: swap.filter((t) => !t.on_hold).sort(byUrgency),
      swapLoaded: true,
      failing: recovered(s.failing, 'swap'),
    }));
  },

  applyTask(task) {
    set((s) => {
      let active = s.active;
      if (isMyActive(task) && !closingTaskIds().has(task.id)) {
        if (fresher(active, task)) active = task;
      } else if (active?.id === task.id && task.version >= active.version) {
        active = null;
      }
      const current = s.swap.find((t) => t.id === task.id);
      let swap = s.swap;
      if (!fresher(current, task)) return { active };
      if (isClaimableSwap(task)) swap = [task, ...s.swap.filter((t) => t.id !== task.id)].sort(byUrgency);
      else if (current) swap = s.swap.filter((t) => t.id !== task.id);
      return { active, swap };
    });
  },

  dropTask(id) {
    set((s) => ({
      active: s.active?.id === id ? null : s.active,
      swap: s.swap.filter((t) => t.id !== id),
    }));
  },

  async complete(task = get().active ?? undefined) {
    if (!task) return '';
    return closeOwn(task, 'finalizada', {
      kind: 'complete',
      path: `/tasks/${task.id}/complete`,
      body: {},
      label: OFFLINE.completeLabel(named(task)),
    });
  },

  async returnTask(reason, task = get().active ?? undefined) {
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
 * queued without a server), the board's card moved at once and put back on a refusal; the task leaves
 * the active card either way.
 */
async function closeOwn(
  task: Task,
  to: 'finalizada' | 'bolsa_trabajo',
  action: Omit<NewAction, 'task_id' | 'query'>,
): Promise<string | null> {
  const send = () =>
    useOutbox.getState().submit<MessageResponse>({ ...action, task_id: task.id }, serverNow());
  const board = useTasks.getState();
  const outcome = task.id in board.byId ? await board.closeOwn(task.id, to, send) : await send();
  useDriver.setState((s) => ({ active: s.active?.id === task.id ? null : s.active }));
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

useDriver.subscribe((s, prev) => {
  const userId = me();
  if (userId && s.activeLoaded && (s.active !== prev.active || !prev.activeLoaded))
    writeSnapshot(userId, { active: s.active });
});

onSessionEnd((userId) => {
  if (userId) forgetSnapshot(userId);
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
