// The task form (SPEC §2 Create-task modal, §3 fields, §5 validation): 'Nueva Tarea' and the staff's edit
// dialog. Validated with the server's own zod schema before sending. Creating: errors are only logged
// (SPEC §8), but the trailer's 409 is shown on its field (CONTRACT §5) and any other refusal inside the
// form. Editing: SPEC §8 toasts; the PUT carries the version the form started from, and when someone
// changed the task meanwhile (409, CONTRACT §5) the form stays open, says so inside, and shows the task as
// it is now, so the user reviews and saves again instead of overwriting the other change.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { PRIORITIES, TASK_TITLES, VEHICLE_TYPES } from '@shared/enums';
import { createTaskSchema, type CreateTaskData, type Task, type UpdateTaskInput } from '@shared/schemas';
import { DESCRIPTION_MAX, TEXT_MAX } from '@shared/constants';
import { ERR, PRIORITY_LABELS, TOAST, UI_BOARD, UI_COMMON, VEHICLE_TYPE_OPTIONS } from '@shared/labels';
import { toast } from 'sonner';
import { ApiError, errorText } from '../../api';
import { useTasks } from '../../stores/tasks';
import type { TaskDraft } from '../../stores/ui';
import { toastError } from '../../toast';
import { Button } from '../Button';
import { cn } from '../cn';
import { Field, inputClass, TextField } from '../Field';
import { Modal } from '../Modal';

type Values = {
  title: string;
  origin: string;
  destination: string;
  trailer_id: string;
  description: string;
  priority: string;
  vehicle_type: string;
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
};

const valuesOf = (t: Task): Values => ({
  title: t.title,
  origin: t.origin,
  destination: t.destination,
  trailer_id: t.trailer_id,
  description: t.description ?? '',
  priority: t.priority,
  vehicle_type: t.vehicle_type,
});

/** The text fields a draft fills in. */
const draftValues = (draft: TaskDraft | null | undefined): Partial<Values> => ({
  ...(draft?.origin ? { origin: draft.origin } : {}),
  ...(draft?.destination ? { destination: draft.destination } : {}),
  ...(draft?.trailer_id ? { trailer_id: draft.trailer_id } : {}),
});

/** The fields that differ from the task (the PUT carries only those). */
function changes(task: Task, data: CreateTaskData): UpdateTaskInput {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(EMPTY) as FieldName[]) if (data[key] !== task[key]) patch[key] = data[key];
  return patch as UpdateTaskInput;
}

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
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Each opening starts from the task (edit) or an empty form (create).
  useEffect(() => {
    if (!open) return;
    setBase(task ?? null);
    setValues(task ? valuesOf(task) : { ...EMPTY, ...draftValues(draft) });
    setErrors({});
    setFormError(null);
  }, [open, task, draft]);

  const set = (name: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
    setFormError(null);
  };

  const trailerConflict = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409 && err.detail)
      setErrors((e) => ({ ...e, trailer_id: err.detail! }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const parsed = createTaskSchema.safeParse(values);
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
    setBusy(true);
    try {
      if (base) {
        const patch = changes(base, data);
        if (Object.keys(patch).length) {
          await useTasks.getState().edit(base.id, { ...patch, version: base.version });
          toast.success(TOAST.taskUpdated);
        }
      } else {
        await useTasks.getState().create(data);
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
          setErrors({});
        }
        return;
      }
      trailerConflict(err);
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
          name="title"
          value={values.title}
          onChange={set('title')}
          error={errors.title}
          options={TASK_TITLES.map((t) => ({ value: t, label: t }))}
          placeholder={UI_BOARD.form.movementPlaceholder}
        />
        <TextField
          label={UI_BOARD.form.trailer}
          name="trailer_id"
          value={values.trailer_id}
          onChange={(e) => set('trailer_id')(e.target.value)}
          error={errors.trailer_id}
          placeholder={UI_BOARD.form.trailerPlaceholder}
          maxLength={TEXT_MAX}
          autoComplete="off"
          className="[&_input]:font-mono [&_input]:uppercase"
        />
        <TextField
          label={UI_BOARD.form.origin}
          name="origin"
          value={values.origin}
          onChange={(e) => set('origin')(e.target.value)}
          error={errors.origin}
          placeholder={UI_BOARD.form.originPlaceholder}
          maxLength={TEXT_MAX}
        />
        <TextField
          label={UI_BOARD.form.destination}
          name="destination"
          value={values.destination}
          onChange={(e) => set('destination')(e.target.value)}
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
        <NativeSelect
          label={UI_BOARD.form.priority}
          name="priority"
          value={values.priority}
          onChange={set('priority')}
          error={errors.priority}
          options={[...PRIORITIES].reverse().map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
        />
        <NativeSelect
          label={UI_BOARD.form.vehicleType}
          name="vehicle_type"
          value={values.vehicle_type}
          onChange={set('vehicle_type')}
          error={errors.vehicle_type}
          options={VEHICLE_TYPES.map((v) => ({ value: v, label: VEHICLE_TYPE_OPTIONS[v] }))}
        />
        {formError && (
          <p
            role="alert"
            className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-inset ring-red-200 sm:col-span-2"
          >
            {formError}
          </p>
        )}
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
}

/** A native select: the phone's own picker, and a required choice can start empty. */
function NativeSelect({ label, name, value, onChange, options, error, placeholder }: NativeSelectProps) {
  return (
    <Field label={label} error={error}>
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
