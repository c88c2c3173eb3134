import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LOCATION_KINDS, type LocationKind } from '@shared/enums';
import { LOCATION_KIND_LABELS, UI_COMMON, UI_LOCATIONS, YARD_ERR } from '@shared/labels';
import {
  createLocationSchema,
  LOCATION_GRID_MAX,
  updateLocationSchema,
  type Location,
  type UpdateLocationData,
} from '@shared/schemas';
import type { z } from 'zod';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { Field, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Select } from '../../components/Select';
import { useLocations } from '../../stores/locations';
import { FormAlert } from '../../components/FormAlert';

const T = UI_LOCATIONS.form;

/** The form as typed: numbers stay text until the schema judges them. */
interface Values {
  code: string;
  name: string;
  kind: LocationKind;
  zone: string;
  capacity: string;
  x: string;
  y: string;
}
type FieldName = keyof Values;
type Errors = Partial<Record<FieldName, string>>;

const valuesOf = (l: Location | null): Values =>
  l
    ? {
        code: l.code,
        name: l.name,
        kind: l.kind,
        zone: l.zone,
        capacity: String(l.capacity),
        x: String(l.x),
        y: String(l.y),
      }
    : { code: '', name: '', kind: 'muelle', zone: '', capacity: '1', x: '', y: '' };

/** Empty is missing; anything else a number (NaN too), so the schema's message names the field's rule. */
const asNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

function errorsOf(error: z.ZodError): Errors {
  const found: Errors = {};
  for (const issue of error.issues) found[issue.path[0] as FieldName] ??= issue.message;
  return found;
}

const KIND_OPTIONS = LOCATION_KINDS.map((k) => ({ value: k, label: LOCATION_KIND_LABELS[k] }));

/**
 * CONTRACT §17 `POST /admin/locations` (no `location`) and `PUT /admin/locations/{id}`: checked with the
 * server's own schemas first; an edit sends only what changed. A taken code or name (409) is shown on its
 * field, any other refusal inside the dialog.
 */
export function LocationDialog({ location, onClose }: { location: Location | null; onClose: () => void }) {
  const formId = useId();
  const [values, setValues] = useState<Values>(() => valuesOf(location));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (name: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
    setFormError(null);
  };

  const refused = (err: unknown, sent: { code?: string; name?: string }) => {
    if (err instanceof ApiError && err.sessionEnded) return;
    const detail = err instanceof ApiError ? err.detail : null;
    if (sent.code && detail === YARD_ERR.codeTaken(sent.code)) setErrors({ code: detail });
    else if (sent.name && detail === YARD_ERR.nameTaken(sent.name)) setErrors({ name: detail });
    else
      setFormError(errorText(err, location ? UI_LOCATIONS.toast.saveError : UI_LOCATIONS.toast.createError));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const input = {
      ...values,
      capacity: asNumber(values.capacity),
      x: asNumber(values.x),
      y: asNumber(values.y),
    };
    const store = useLocations.getState();
    if (!location) {
      const parsed = createLocationSchema.safeParse(input);
      if (!parsed.success) return setErrors(errorsOf(parsed.error));
      setBusy(true);
      try {
        const created = await store.create(parsed.data);
        toast.success(UI_LOCATIONS.toast.created(created.name));
        onClose();
      } catch (err) {
        refused(err, parsed.data);
        setBusy(false);
      }
      return;
    }
    const parsed = updateLocationSchema.safeParse(input);
    if (!parsed.success) return setErrors(errorsOf(parsed.error));
    const changes = Object.fromEntries(
      Object.entries(parsed.data).filter(([key, value]) => value !== location[key as keyof Location]),
    ) as UpdateLocationData;
    // Only spaces or letter case differed: the stored values already are these.
    if (Object.keys(changes).length === 0) return onClose();
    setBusy(true);
    try {
      const saved = await store.update(location.id, changes);
      toast.success(UI_LOCATIONS.toast.saved(saved.name));
      onClose();
    } catch (err) {
      refused(err, changes);
      setBusy(false);
    }
  }

  const text = (
    name: 'code' | 'name' | 'zone',
    label: string,
    extra: Partial<Parameters<typeof TextField>[0]>,
  ) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={(e) => set(name)(e.target.value)}
      error={errors[name]}
      autoComplete="off"
      {...extra}
    />
  );
  const number = (name: 'capacity' | 'x' | 'y', label: string) => (
    <TextField
      label={label}
      name={name}
      type="number"
      inputMode="numeric"
      min={name === 'capacity' ? 1 : 0}
      step={1}
      value={values[name]}
      onChange={(e) => set(name)(e.target.value)}
      error={errors[name]}
    />
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      title={location ? T.editTitle : T.createTitle}
      description={location ? T.editDescription(location.code) : T.createDescription}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {busy ? (location ? T.saving : T.creating) : location ? T.save : T.create}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2">
        {text('code', T.code, { hint: T.codeHint, className: '[&_input]:font-mono [&_input]:uppercase' })}
        {text('name', T.name, { placeholder: T.namePlaceholder })}
        <Field label={T.kind} error={errors.kind}>
          {({ id }) => (
            <Select id={id} value={values.kind} options={KIND_OPTIONS} onChange={(v) => set('kind')(v)} />
          )}
        </Field>
        {number('capacity', T.capacity)}
        {text('zone', T.zone, { hint: T.zoneHint, className: 'sm:col-span-2' })}
        {number('x', T.x)}
        {number('y', T.y)}
        <p className="-mt-2 text-xs text-slate-500 sm:col-span-2">{T.cellHint(LOCATION_GRID_MAX)}</p>
        {formError && <FormAlert className="sm:col-span-2">{formError}</FormAlert>}
      </form>
    </Modal>
  );
}
