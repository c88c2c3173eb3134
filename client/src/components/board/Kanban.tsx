// The kanban board (SPEC §2, §4, §5; CONTRACT §5) in two modes:
// - staff (admin, manager, gestor): drag any card to any visible column; En Proceso asks for the driver
//   (DriverPicker); a driver's En Proceso card dropped on Finalizada asks first (CONTRACT §15); edit,
//   assign/reassign, hold/release (pool) and delete (with confirmation) on every card; a held pool task says
//   its hold before it is assigned, and a damage-held one asks CONTRACT §19's question before it is
//   assigned, released or finished;
// - driver: 'Asignarme' on pool tasks, 'Devolver' on their own task, drags only under SPEC §4 (anything
//   else is refused here with the SPEC §5 text), the Finalizada column, and tabs on a phone.
// Moves are optimistic (stores/tasks) and rolled back with the server's detail as the toast. What the drag
// library says to screen readers is Spanish (UI_BOARD.dnd).
// Mount the data with `useTasksFeed()` (stores/tasks) wherever this board is shown.
import { useCallback, useMemo, useState } from 'react';
import {
  DragDropContext,
  type DragStart,
  type DragUpdate,
  type DropResult,
  type ResponderProvided,
} from '@hello-pangea/dnd';
import * as Tabs from '@radix-ui/react-tabs';
import { toast } from 'sonner';
import { RETURN_REASONS, type ReturnReason, type TaskStatus } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { ERR, STATUS_LABELS, TOAST, UI_BOARD, UI_DRIVER } from '@shared/labels';
import { useSession } from '../../stores/session';
import { closeOwnTask, useDriver } from '../../stores/driver';
import { useTasks, type Assignee } from '../../stores/tasks';
import { toastError } from '../../toast';
import { cn } from '../cn';
import { ConfirmDialog } from '../ConfirmDialog';
import { TEXT_MAX } from '@shared/constants';
import {
  BoardContext,
  boardColumns,
  type BoardActions,
  type BoardContextValue,
  type BoardMode,
} from './context';
import { useMediaQuery } from './hooks';
import { DriverPicker } from './DriverPicker';
import { ReasonDialog, type ReasonField } from './ReasonDialog';
import { COLUMN_LOOK, KanbanColumn } from './KanbanColumn';
import { TaskForm } from './TaskForm';

type Dialog =
  | {
      kind: 'assign' | 'edit' | 'delete' | 'claim' | 'return' | 'complete' | 'hold' | 'finish';
      task: Task;
    }
  /** A held pool task staff are about to move: the hold is said first, then `next` goes on. */
  | { kind: 'held'; task: Task; next: HeldNext };
type HeldNext = 'assign' | 'release' | 'finish';

/** CONTRACT §19: a damage hold is only released, assigned or finished after the question. */
const damageHeld = (t: Task) => t.status === 'bolsa_trabajo' && t.on_hold && t.hold_source === 'damage';
/** Issue 28: any held pool task opens the driver picker only after the hold is said. */
const heldInPool = (t: Task) => t.status === 'bolsa_trabajo' && t.on_hold;

const PHONE = '(max-width: 767px)';
const named = (t: Task) => `${t.title} ${t.trailer_id}`;

/** SPEC §8 toasts around a store call; rethrows so a confirmation dialog stays open for a retry. */
async function run(work: () => Promise<unknown>, success: (result: unknown) => string, fallback: string) {
  try {
    toast.success(success(await work()));
  } catch (err) {
    toastError(err, fallback);
    throw err;
  }
}
const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);

const moveTo = (task: Task, to: TaskStatus, driver?: Assignee) =>
  run(
    // The version the user decided on (the card as dragged, or as the confirming dialog showed it).
    () => useTasks.getState().move(task.id, to, driver, task.version),
    () => TOAST.taskUpdated,
    TOAST.updateTaskError,
  );

/** 'Devolver' asks first, with the optional reason the card will show (CONTRACT §5). */
const RETURN_REASON: ReasonField<ReturnReason> = {
  options: RETURN_REASONS,
  noReason: UI_DRIVER.returnConfirm.noReason,
};
// The driver's own task ends by the same path as on the active card (stores/driver.ts: the outbox).
const giveBack = (task: Task, reason: ReturnReason | null) =>
  closeOwnTask(() => useDriver.getState().returnTask(reason, task), TOAST.returnError);

/** Staff 'Retener' (CONTRACT §15): an optional reason, shown on every card while it is held. */
const HOLD_REASON: ReasonField<string> = {
  placeholder: UI_BOARD.holdConfirm.reasonPlaceholder,
  maxLength: TEXT_MAX,
};
const putOnHold = (task: Task, reason: string | null) =>
  run(
    () => useTasks.getState().putOnHold(task.id, reason),
    () => TOAST.taskUpdated,
    TOAST.updateTaskError,
  );

interface KanbanProps {
  mode: BoardMode;
  className?: string;
}

export function Kanban({ mode, className }: KanbanProps) {
  const user = useSession((s) => s.user);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = useCallback(() => setDialog(null), []);
  // The hold's question closes itself once answered: the picker it opened stays.
  const closeHeld = useCallback(() => setDialog((d) => (d?.kind === 'held' ? null : d)), []);
  const userId = user?.id ?? '';
  const userName = user?.name ?? '';

  const statuses = boardColumns(mode, user?.role ?? 'conductor');

  const actions = useMemo<BoardActions>(() => {
    const open = (kind: Exclude<Dialog['kind'], 'held'>) => (task: Task) => setDialog({ kind, task });
    return {
      edit: open('edit'),
      remove: open('delete'),
      assign(task) {
        setDialog(heldInPool(task) ? { kind: 'held', task, next: 'assign' } : { kind: 'assign', task });
      },
      hold: open('hold'),
      release(task) {
        if (damageHeld(task)) return setDialog({ kind: 'held', task, next: 'release' });
        quiet(releaseHold(task));
      },
      claim(task) {
        // SPEC §5: refused on the client when the task is no longer free; CONTRACT §15: or held.
        if (task.assigned_to || task.status !== 'bolsa_trabajo') return void toast.error(ERR.alreadyAssigned);
        if (task.on_hold) return void toast.error(UI_BOARD.card.claimHeld(task.hold_reason));
        // SPEC §5: claiming a Swap task asks first.
        if (task.vehicle_type === 'swap') return setDialog({ kind: 'claim', task });
        quiet(claimTask(task, { id: userId, name: userName }));
      },
      giveBack(task) {
        if (task.status !== 'en_proceso' || task.assigned_to !== userId)
          return void toast.error(ERR.driverMoveRule);
        setDialog({ kind: 'return', task });
      },
    };
  }, [userId, userName]);

  const board = useMemo<BoardContextValue>(() => ({ mode, userId, actions }), [mode, userId, actions]);

  const onDragEnd = useCallback(
    (result: DropResult, provided: ResponderProvided) => {
      announceDrop(result, provided);
      const { draggableId, source, destination } = result;
      if (!destination || destination.droppableId === source.droppableId) return;
      const task = useTasks.getState().byId[draggableId];
      if (!task) return;
      const to = destination.droppableId as TaskStatus;
      if (mode === 'staff') {
        if (to === 'en_proceso') return actions.assign(task);
        // Finishing a driver's task credits them and tells their phone: asked first (CONTRACT §15).
        if (to === 'finalizada' && task.status === 'en_proceso' && task.assigned_to)
          return setDialog({ kind: 'finish', task });
        if (to === 'finalizada' && damageHeld(task)) return setDialog({ kind: 'held', task, next: 'finish' });
        return quiet(moveTo(task, to));
      }
      // SPEC §4: a driver claims a pool task, or moves their own task (return or complete); nothing else.
      if (task.status === 'bolsa_trabajo' && to === 'en_proceso') return actions.claim(task);
      if (task.status === 'en_proceso' && task.assigned_to === userId) {
        if (to === 'bolsa_trabajo') return setDialog({ kind: 'return', task });
        if (to === 'finalizada') return setDialog({ kind: 'complete', task });
      }
      toast.error(ERR.driverMoveRule);
    },
    [mode, userId, actions],
  );

  const phoneTabs = useMediaQuery(PHONE) && mode === 'driver';

  return (
    <BoardContext.Provider value={board}>
      <DragDropContext
        onDragStart={announceLift}
        onDragUpdate={announceMove}
        onDragEnd={onDragEnd}
        dragHandleUsageInstructions={UI_BOARD.dnd.instructions}
      >
        {phoneTabs ? (
          <PhoneTabs statuses={statuses} className={className} />
        ) : (
          <div
            data-testid="kanban"
            className={cn(
              'grid gap-3',
              statuses.length === 3 ? 'md:grid-cols-3' : 'md:grid-cols-2',
              className,
            )}
          >
            {statuses.map((s) => (
              <KanbanColumn key={s} status={s} />
            ))}
          </div>
        )}
      </DragDropContext>
      <BoardDialogs
        dialog={dialog}
        close={close}
        me={{ id: userId, name: userName }}
        held={{ close: closeHeld, pick: (task) => setDialog({ kind: 'assign', task }) }}
      />
    </BoardContext.Provider>
  );
}

// ---- what the drag library announces, in Spanish ------------------------------------------------

const cardName = (id: string) => {
  const task = useTasks.getState().byId[id];
  return task ? named(task) : '';
};
const columnName = (id: string) => STATUS_LABELS[id as TaskStatus] ?? id;

function announceLift(start: DragStart, provided: ResponderProvided) {
  provided.announce(UI_BOARD.dnd.lifted(cardName(start.draggableId), columnName(start.source.droppableId)));
}

function announceMove(update: DragUpdate, provided: ResponderProvided) {
  const to = update.destination;
  provided.announce(to ? UI_BOARD.dnd.over(columnName(to.droppableId), to.index + 1) : UI_BOARD.dnd.noTarget);
}

function announceDrop(result: DropResult, provided: ResponderProvided) {
  const name = cardName(result.draggableId);
  provided.announce(
    result.reason === 'CANCEL' || !result.destination
      ? UI_BOARD.dnd.cancelled(name, columnName(result.source.droppableId))
      : UI_BOARD.dnd.dropped(name, columnName(result.destination.droppableId)),
  );
}

const releaseHold = (task: Task) =>
  run(
    () => useTasks.getState().releaseHold(task.id),
    () => TOAST.taskUpdated,
    TOAST.updateTaskError,
  );

function claimTask(task: Task, me: Assignee) {
  return run(
    () => useTasks.getState().selfAssign(task.id, me),
    (message) => String(message),
    TOAST.selfAssignError,
  );
}

function PhoneTabs({ statuses, className }: { statuses: TaskStatus[]; className?: string }) {
  return (
    <Tabs.Root defaultValue={statuses[0]} className={className} data-testid="kanban">
      <Tabs.List
        aria-label={UI_BOARD.kanban.tabs}
        className={cn(
          'grid gap-1 rounded-xl bg-slate-200 p-1',
          statuses.length === 3 ? 'grid-cols-3' : 'grid-cols-2',
        )}
      >
        {statuses.map((s) => (
          <Tabs.Trigger
            key={s}
            value={s}
            className="flex min-h-11 flex-col items-center justify-center gap-0.5 rounded-lg px-1 text-xs font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm"
          >
            <span className="flex items-center gap-1.5">
              <span aria-hidden className={cn('size-2 rounded-full', COLUMN_LOOK[s].dot)} />
              {STATUS_LABELS[s]}
            </span>
            <TabCount status={s} />
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {statuses.map((s) => (
        <Tabs.Content key={s} value={s} className="mt-2 focus-visible:outline-none">
          <KanbanColumn status={s} bare />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

function TabCount({ status }: { status: TaskStatus }) {
  const n = useTasks((s) => {
    let count = 0;
    for (const id in s.byId) if (s.byId[id].status === status) count++;
    return count;
  });
  return <span className="tabular-nums text-slate-500">{UI_BOARD.kanban.count(n)}</span>;
}

interface DialogsProps {
  dialog: Dialog | null;
  close: () => void;
  me: Assignee;
  /** The hold's question: closing it, and opening the driver picker once it is answered. */
  held: { close: () => void; pick: (task: Task) => void };
}

function BoardDialogs({ dialog, close, me, held }: DialogsProps) {
  const onOpenChange = (open: boolean) => !open && close();
  const task = dialog?.task;
  return (
    <>
      <DriverPicker
        task={dialog?.kind === 'assign' ? dialog.task : null}
        onOpenChange={onOpenChange}
        onPick={(driver) => {
          const picked = dialog!.task;
          close();
          quiet(moveTo(picked, 'en_proceso', { id: driver.id, name: driver.name }));
        }}
      />
      <TaskForm
        open={dialog?.kind === 'edit'}
        onOpenChange={onOpenChange}
        task={dialog?.kind === 'edit' ? task : null}
      />
      {dialog?.kind === 'held' && (
        <HeldConfirm
          task={dialog.task}
          next={dialog.next}
          onClose={held.close}
          onConfirm={() => {
            if (dialog.next === 'assign') return held.pick(dialog.task);
            return dialog.next === 'release' ? releaseHold(dialog.task) : moveTo(dialog.task, 'finalizada');
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          title={UI_BOARD.deleteConfirm.title}
          message={UI_BOARD.deleteConfirm.message(named(dialog.task))}
          confirmLabel={UI_BOARD.deleteConfirm.confirm}
          onConfirm={() =>
            run(
              () => useTasks.getState().remove(dialog.task.id),
              () => TOAST.taskDeleted,
              TOAST.deleteTaskError,
            )
          }
        />
      )}
      {dialog?.kind === 'claim' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          variant="primary"
          title={UI_DRIVER.swap.confirmTitle}
          message={UI_DRIVER.swap.confirmMessage(named(dialog.task))}
          confirmLabel={UI_DRIVER.swap.confirm}
          onConfirm={() => claimTask(dialog.task, me)}
        />
      )}
      {dialog?.kind === 'complete' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          variant="success"
          title={UI_DRIVER.completeConfirm.title}
          message={UI_DRIVER.completeConfirm.message(named(dialog.task))}
          confirmLabel={UI_DRIVER.completeConfirm.confirm}
          onConfirm={() =>
            closeOwnTask(() => useDriver.getState().complete(dialog.task), TOAST.completeError)
          }
        />
      )}
      {dialog?.kind === 'return' && (
        <ReasonDialog
          texts={UI_DRIVER.returnConfirm}
          subject={named(dialog.task)}
          field={RETURN_REASON}
          onOpenChange={onOpenChange}
          onConfirm={(reason) => giveBack(dialog.task, reason)}
        />
      )}
      {dialog?.kind === 'hold' && (
        <ReasonDialog
          texts={UI_BOARD.holdConfirm}
          subject={named(dialog.task)}
          field={HOLD_REASON}
          onOpenChange={onOpenChange}
          onConfirm={(reason) => putOnHold(dialog.task, reason)}
        />
      )}
      {dialog?.kind === 'finish' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          variant="success"
          title={UI_BOARD.finishConfirm.title(dialog.task.assigned_to_name ?? UI_BOARD.card.unassigned)}
          message={UI_BOARD.finishConfirm.message(
            named(dialog.task),
            dialog.task.assigned_to_name ?? UI_BOARD.card.unassigned,
          )}
          confirmLabel={UI_BOARD.finishConfirm.confirm}
          onConfirm={() => moveTo(dialog.task, 'finalizada')}
        />
      )}
    </>
  );
}

/** The hold said before staff move a held pool task: the damage's question, or the staff hold's reason. */
function HeldConfirm(props: {
  task: Task;
  next: HeldNext;
  onClose: () => void;
  onConfirm: () => Promise<unknown> | void;
}) {
  const { task, next } = props;
  const texts = UI_BOARD.heldConfirm;
  const damage = task.hold_source === 'damage';
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      variant="warning"
      title={damage ? texts.damageTitle : texts.title}
      message={damage ? texts.damage : texts.held(task.hold_reason)}
      confirmLabel={next === 'release' ? texts.release : damage ? texts.move : texts.assign}
      onConfirm={props.onConfirm}
    >
      <p className="font-medium text-slate-800">{named(task)}</p>
    </ConfirmDialog>
  );
}
