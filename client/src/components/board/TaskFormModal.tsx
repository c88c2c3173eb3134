// The task form (SPEC §2 Create-task modal, §3 fields, §5 validation): 'Nueva Tarea' and the staff's edit
// dialog. Validated with the server's own zod schema before sending. Creating: errors are only logged
// (SPEC §8), but the trailer's 409 is shown on its field (CONTRACT §5) and any other refusal inside the
// form. Editing: SPEC §8 toasts; the PUT carries the version the form started from, and when someone
// changed the task meanwhile (409, CONTRACT §5) the form stays open, says so inside, and shows the task as
// it is now, so the user reviews and saves again instead of overwriting the other change.
// Origin and destination autocomplete from the yard's catalogue (CONTRACT §17): a picked place travels as
// its id, typed text lets the server map it; creating, the origin starts as the trailer's current place;
// a full destination's 409 is shown on its field. The destination's suggestions say each place's free
// room (CONTRACT §19), live through the places feed. `Carga al terminar` (CONTRACT §19 load_state_after):
// `Sin cambio` is omitted when creating, and sent as null when editing only if the task had a value.
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import {
  deadlineLabel,
  dueAtError,
  dueAtFromPicker,
  DUE_DAYS,
  pickerOf,
  type DueDay,
} from '@shared/deadline';
import { LOAD_STATES, PRIORITIES, TASK_TITLES, VEHICLE_TYPES } from '@shared/enums';
import {
  createTaskSchema,
  type CreateTaskData,
  type Location,
  type Task,
  type UpdateTaskInput,
} from '@shared/schemas';
import { DESCRIPTION_MAX, TEXT_MAX } from '@shared/constants';
import {
  DEADLINE_TEXT,
  ERR,
  LOAD_STATE_LABELS,
  PRIORITY_LABELS,
  TOAST,
  TRAILER_OFFER,
  UI_BOARD,
  UI_COMMON,
  UI_DEADLINE,
  VEHICLE_TYPE_OPTIONS,
  YARD_ERR,
} from '@shared/labels';
import { toast } from 'sonner';
import { ApiError, errorText } from '../../api';
import { trailerPlaceOf, useLocations, usePlacesFeed } from '../../stores/locations';
import { useKnownTrailer } from './useKnownTrailer';
import { useTasks } from '../../stores/tasks';
import type { TaskDraft } from '../../stores/ui';
import { serverNow } from '../../stores/timeclock';
import { toastError } from '../../toast';
import { Button } from '../Button';
import { cn } from '../cn';
import { Field, inputClass, TextField } from '../Field';
import { Modal } from '../Modal';
import { PlaceCombobox } from '../PlaceCombobox';
import { FormAlert } from '../FormAlert';

type Values = {
  title: string;
  origin: string;
  destination: string;
  trailer_id: string;
  description: string;
  priority: string;
  vehicle_type: string;
  /** '' is `Sin cambio`. */
  load_state_after: string;
};
type FieldName = keyof Values;

const EMPTY: Values = {
  title: '',
  origin: '',
  destination: '',
  trailer_id: '',
  description: '',
  priority: 'normal',
  vehicle_type: 'semiremolque',
  load_state_after: '',
};

const valuesOf = (t: Task): Values => ({
  title: t.title,
  origin: t.origin,
  destination: t.destination,
  trailer_id: t.trailer_id,
  description: t.description ?? '',
  priority: t.priority,
  vehicle_type: t.vehicle_type,
  load_state_after: t.load_state_after ?? '',
});

/** The text fields a draft fills in. */
const draftValues = (draft: TaskDraft | null | undefined): Partial<Values> => ({
  ...(draft?.origin ? { origin: draft.origin } : {}),
  ...(draft?.destination ? { destination: draft.destination } : {}),
  ...(draft?.trailer_id ? { trailer_id: draft.trailer_id } : {}),
});

/** The places a draft names (a slot of the Patio map is a catalogue place). */
const draftPicked = (draft: TaskDraft | null | undefined): Partial<Picked> => ({
  ...(draft?.origin && draft.origin_location_id ? { origin: draft.origin_location_id } : {}),
  ...(draft?.destination && draft.destination_location_id
    ? { destination: draft.destination_location_id }
    : {}),
});

type Side = 'origin' | 'destination';
const SIDES: readonly Side[] = ['origin', 'destination'];
const ID_FIELD = { origin: 'origin_location_id', destination: 'destination_location_id' } as const;

/** The catalogue places picked for each side (null: typed text, the server maps it). */
type Picked = Record<Side, string | null>;
const NONE_PICKED: Picked = { origin: null, destination: null };
const pickedOf = (t: Pick<Task, 'origin_location_id' | 'destination_location_id'>): Picked => ({
  origin: t.origin_location_id ?? null,
  destination: t.destination_location_id ?? null,
});

/**
 * The fields that differ from the task (the PUT carries only those). A place is sent only when one was
 * picked: typed text goes without its id, so the server maps it (null would force it to stay free text).
 */
function changes(task: Task, data: CreateTaskData): UpdateTaskInput {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(EMPTY) as FieldName[]) {
    // `Sin cambio` is null to the task: sent only when it had a value.
    const value = key === 'load_state_after' ? (data[key] ?? null) : data[key];
    if (value !== task[key]) patch[key] = value;
  }
  for (const side of SIDES) {
    const id = data[ID_FIELD[side]];
    if (id && id !== task[ID_FIELD[side]]) patch[ID_FIELD[side]] = id;
  }
  return patch as UpdateTaskInput;
}

/**
 * The `Hora límite` picker (CONTRACT §20): a day (`Hoy` / `Mañana`) and a Madrid `HH:mm`, empty for none.
 * `kept` is a deadline the picker cannot express (beyond tomorrow, set through the API): shown, and kept
 * unchanged until the user picks another or clears it. `touched`: only a deadline the user changed is sent.
 */
interface Due {
  day: DueDay;
  time: string;
  kept: string | null;
  touched: boolean;
}
const NO_DUE: Due = { day: 'today', time: '', kept: null, touched: false };
function dueOf(dueAt: string | null | undefined): Due {
  if (!dueAt) return NO_DUE;
  const shown = pickerOf(dueAt, serverNow());
  return shown ? { ...NO_DUE, ...shown } : { ...NO_DUE, kept: dueAt };
}
/** The `due_at` the picker says: undefined while untouched (nothing to send), null when cleared. */
function dueAtOf(due: Due): string | null | undefined {
  if (!due.touched) return undefined;
  return due.time ? dueAtFromPicker(due.day, due.time, serverNow()) : null;
}
const DEADLINE_ERRORS: readonly string[] = [DEADLINE_TEXT.past, DEADLINE_TEXT.tooFar, DEADLINE_TEXT.invalid];

// CONTRACT §17's refusal of a full destination, recognised by the one text that says it.
const [FULL_BEFORE, FULL_AFTER] = YARD_ERR.locationFull('\u0000').split('\u0000');
const isLocationFull = (err: unknown): err is ApiError =>
  err instanceof ApiError &&
  err.status === 409 &&
  !!err.detail?.startsWith(FULL_BEFORE) &&
  err.detail.endsWith(FULL_AFTER);

const isVersionConflict = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status === 409 && err.detail === ERR.versionConflict;

/** The task as it is now: the store's copy (the socket keeps it current), else the board reloaded. */
async function freshTask(stale: Task): Promise<Task | undefined> {
  const known = useTasks.getState().byId[stale.id];
  if (known && known.version > stale.version) return known;
  try {
    await useTasks.getState().load();
  } catch {
    // The message stays; a later push or resync still brings the task.
  }
  return useTasks.getState().byId[stale.id];
}

interface TaskFormModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The task to edit; without it the form creates one. */
  task?: Task | null;
  /** What a new task starts with (a trailer dragged on the Patio map); ignored when editing. */
  draft?: TaskDraft | null;
}

export function TaskFormModal({ open, onOpenChange, task, draft }: TaskFormModalProps) {
  const editing = Boolean(task);
  const formId = useId();
  /** The task as the form last loaded it: its fields are the form's starting point, its version is sent. */
  const [base, setBase] = useState<Task | null>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [picked, setPicked] = useState<Picked>(NONE_PICKED);
  /**
   * Creating: the origin follows the trailer's current place (while the user has typed none). It starts
   * so, and a trailer typed while the origin is empty turns it on again; typing an origin turns it off.
   */
  const [originFollowsTrailer, setOriginFollowsTrailer] = useState(false);
  const [due, setDue] = useState<Due>(NO_DUE);
  const [dueError, setDueError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  usePlacesFeed(open, !editing, true);
  const catalogue = useLocations((s) => s.locations);
  const room = useLocations((s) => s.room);
  const places = useMemo(() => catalogue.filter((l) => l.active), [catalogue]);
  const trailerPlace = useLocations((s) =>
    originFollowsTrailer ? trailerPlaceOf(s.trailerPlaces, values.trailer_id) : null,
  );
  // CONTRACT §19: the known trailer the typed plate names (its record), offered when written otherwise.
  const known = useKnownTrailer(values.trailer_id, open && !editing);
  const offer =
    known && known.trailer_id.toUpperCase() !== values.trailer_id.trim().toUpperCase()
      ? known.trailer_id
      : null;
  const followed = trailerPlace ?? (originFollowsTrailer ? (known?.location ?? null) : null);
  // What the origin field shows and the form sends.
  const origin = originFollowsTrailer ? (followed?.name ?? '') : values.origin;
  const originId = originFollowsTrailer ? (followed?.id ?? null) : picked.origin;

  // Each opening starts from the task (edit) or an empty form (create).
  useEffect(() => {
    if (!open) return;
    setBase(task ?? null);
    setValues(task ? valuesOf(task) : { ...EMPTY, ...draftValues(draft) });
    setPicked(task ? pickedOf(task) : { ...NONE_PICKED, ...draftPicked(draft) });
    setOriginFollowsTrailer(!task && !draft?.origin);
    setDue(dueOf(task?.due_at));
    setDueError(null);
    setErrors({});
    setFormError(null);
  }, [open, task, draft]);

  const set = (name: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
    setFormError(null);
  };

  /** What a select of the form shows and changes. */
  const selectProps = (name: FieldName) => ({
    name,
    value: values[name],
    onChange: set(name),
    error: errors[name],
  });

  const setPlace = (side: Side) => (text: string, place: Location | null) => {
    if (side === 'origin') setOriginFollowsTrailer(false);
    set(side)(text);
    setPicked((p) => ({ ...p, [side]: place?.id ?? null }));
  };

  const setTrailer = (value: string) => {
    set('trailer_id')(value);
    if (!editing && origin.trim() === '') setOriginFollowsTrailer(true);
  };

  const changeDue = (next: Partial<Due>) => {
    setDue((d) => {
      const merged = { ...d, ...next };
      // The day alone, with no time yet, changes nothing (a kept deadline stays).
      if (!merged.time && !('time' in next)) return merged;
      return { ...merged, kept: null, touched: true };
    });
    setDueError(null);
    setFormError(null);
  };

  /** A 409 on a field: the full destination's, else the trailer's (busy with another open task). */
  const fieldConflict = (err: unknown) => {
    if (isLocationFull(err)) setErrors((e) => ({ ...e, destination: err.detail! }));
    else if (err instanceof ApiError && err.status === 409 && err.detail)
      setErrors((e) => ({ ...e, trailer_id: err.detail! }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const parsed = createTaskSchema.safeParse({
      ...values,
      load_state_after: values.load_state_after || undefined,
      origin,
      origin_location_id: originId ?? undefined,
      destination_location_id: picked.destination ?? undefined,
    });
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as FieldName;
        found[name] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    const data = parsed.data;
    // The deadline: only one the user changed is sent (and judged, CONTRACT §20: an unchanged past one stays).
    const dueAt = dueAtOf(due);
    const dueRefusal = dueAt ? dueAtError(dueAt, serverNow()) : null;
    if (dueRefusal) {
      setDueError(dueRefusal);
      return;
    }
    setBusy(true);
    try {
      if (base) {
        const patch = changes(base, data);
        if (dueAt !== undefined && dueAt !== base.due_at) patch.due_at = dueAt;
        if (Object.keys(patch).length) {
          await useTasks.getState().edit(base.id, { ...patch, version: base.version });
          toast.success(TOAST.taskUpdated);
        }
      } else {
        await useTasks.getState().create(dueAt ? { ...data, due_at: dueAt } : data);
        toast.success(TOAST.taskCreated);
      }
      onOpenChange(false);
    } catch (err) {
      if (base) toastError(err, TOAST.updateTaskError);
      else console.error(TOAST.createTaskError, err);
      if (err instanceof ApiError && err.sessionEnded) return;
      if (base && isVersionConflict(err)) {
        setFormError(err.detail);
        const fresh = await freshTask(base);
        if (fresh && fresh.version > base.version) {
          setBase(fresh);
          setValues(valuesOf(fresh));
          setPicked(pickedOf(fresh));
          setDue(dueOf(fresh.due_at));
          setErrors({});
        }
        return;
      }
      if (err instanceof ApiError && err.status === 400 && DEADLINE_ERRORS.includes(err.detail ?? '')) {
        setDueError(err.detail);
        return;
      }
      fieldConflict(err);
      if (!(err instanceof ApiError && err.status === 409))
        setFormError(errorText(err, task ? TOAST.updateTaskError : TOAST.createTaskError));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      dismissible={!busy}
      // Wide enough that every select shows its whole value at 1440×900 (issue 28 item 7).
      size="lg"
      title={editing ? UI_BOARD.form.editTitle : UI_BOARD.form.createTitle}
      description={
        editing ? `${(base ?? task)!.title} ${(base ?? task)!.trailer_id}` : UI_BOARD.form.createDescription
      }
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {busy
              ? editing
                ? UI_BOARD.form.saving
                : UI_BOARD.form.creating
              : editing
                ? UI_BOARD.form.save
                : UI_BOARD.form.create}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2">
        <NativeSelect
          label={UI_BOARD.form.movement}
          {...selectProps('title')}
          options={TASK_TITLES.map((t) => ({ value: t, label: t }))}
          placeholder={UI_BOARD.form.movementPlaceholder}
        />
        <TextField
          label={UI_BOARD.form.trailer}
          name="trailer_id"
          value={values.trailer_id}
          onChange={(e) => setTrailer(e.target.value)}
          error={errors.trailer_id}
          placeholder={UI_BOARD.form.trailerPlaceholder}
          maxLength={TEXT_MAX}
          autoComplete="off"
          className="[&_input]:font-mono [&_input]:uppercase"
        />
        {offer && (
          <div className="-mt-2 sm:col-span-2">
            <Button
              type="button"
              variant="secondary"
              size="sm"
              title={TRAILER_OFFER.title(offer)}
              onClick={() => setTrailer(offer)}
              data-testid="trailer-offer"
            >
              {TRAILER_OFFER.offer(offer)}
            </Button>
          </div>
        )}
        <PlaceCombobox
          label={UI_BOARD.form.origin}
          name="origin"
          value={origin}
          placeId={originId}
          places={places}
          onChange={setPlace('origin')}
          error={errors.origin}
          placeholder={UI_BOARD.form.originPlaceholder}
          maxLength={TEXT_MAX}
        />
        <PlaceCombobox
          label={UI_BOARD.form.destination}
          name="destination"
          value={values.destination}
          placeId={picked.destination}
          places={places}
          room={room}
          onChange={setPlace('destination')}
          error={errors.destination}
          placeholder={UI_BOARD.form.destinationPlaceholder}
          maxLength={TEXT_MAX}
        />
        <Field label={UI_BOARD.form.description} error={errors.description} className="sm:col-span-2">
          {(control) => (
            <textarea
              {...control}
              name="description"
              rows={3}
              maxLength={DESCRIPTION_MAX}
              value={values.description}
              onChange={(e) => set('description')(e.target.value)}
              placeholder={UI_BOARD.form.descriptionPlaceholder}
              className={cn(inputClass, 'h-auto py-2')}
            />
          )}
        </Field>
        <DeadlineField due={due} error={dueError} onChange={changeDue} />
        <NativeSelect
          label={UI_BOARD.form.priority}
          {...selectProps('priority')}
          options={[...PRIORITIES].reverse().map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
        />
        <NativeSelect
          label={UI_BOARD.form.vehicleType}
          {...selectProps('vehicle_type')}
          className="sm:col-span-2"
          options={VEHICLE_TYPES.map((v) => ({ value: v, label: VEHICLE_TYPE_OPTIONS[v] }))}
        />
        <NativeSelect
          label={UI_BOARD.form.loadStateAfter}
          {...selectProps('load_state_after')}
          options={[
            { value: '', label: UI_BOARD.form.loadStateUnchanged },
            ...LOAD_STATES.map((l) => ({ value: l, label: LOAD_STATE_LABELS[l] })),
          ]}
        />
        {formError && <FormAlert className="sm:col-span-2">{formError}</FormAlert>}
      </form>
    </Modal>
  );
}

interface NativeSelectProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  error?: string;
  placeholder?: string;
  className?: string;
}

/** A native select: the phone's own picker, and a required choice can start empty. */
function NativeSelect({
  label,
  name,
  value,
  onChange,
  options,
  error,
  placeholder,
  className,
}: NativeSelectProps) {
  return (
    <Field label={label} error={error} className={className}>
      {(control) => (
        <select
          {...control}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        >
          {placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

interface DeadlineFieldProps {
  due: Due;
  error: string | null;
  onChange: (next: Partial<Due>) => void;
}

/** `Hora límite`: `Hoy` / `Mañana` and a time (Madrid), clearable; a deadline beyond tomorrow is kept. */
function DeadlineField({ due, error, onChange }: DeadlineFieldProps) {
  const kept = due.kept ? UI_DEADLINE.kept(deadlineLabel(due.kept, serverNow()).text) : null;
  return (
    <Field label={UI_DEADLINE.field} error={error} hint={kept ?? UI_DEADLINE.hint}>
      {(control) => (
        <div className="grid grid-cols-[7.5rem_minmax(0,1fr)_auto] gap-2" data-testid="deadline-field">
          <select
            aria-label={UI_DEADLINE.day}
            name="due_day"
            value={due.day}
            onChange={(e) => onChange({ day: e.target.value as DueDay })}
            className={inputClass}
          >
            {DUE_DAYS.map((d) => (
              <option key={d} value={d}>
                {UI_DEADLINE[d]}
              </option>
            ))}
          </select>
          <input
            {...control}
            type="time"
            name="due_time"
            value={due.time}
            onChange={(e) => onChange({ time: e.target.value })}
            className={cn(inputClass, 'tabular-nums')}
          />
          {(due.time || due.kept) && (
            <Button
              type="button"
              variant="secondary"
              aria-label={UI_DEADLINE.clear}
              title={UI_DEADLINE.clear}
              onClick={() => onChange({ time: '' })}
              className="h-10 px-2.5"
            >
              <X aria-hidden className="size-4" />
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}
