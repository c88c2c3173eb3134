// Punch corrections in Control Conductores (CONTRACT §15, admin and manager): add a punch the driver
// forgot (type, Madrid date and time, reason) or remove a wrong one (confirm with a reason). The
// server keeps who, when and why; the row then shows `Corregido`.
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CLOCK_TYPES, type ClockType } from '@shared/enums';
import { TEXT_MAX } from '@shared/constants';
import { CLOCK_TYPE_LABELS, UI_COMMON, UI_TIME_CONTROL } from '@shared/labels';
import { addPunchSchema, zodDetail, type DailySummary, type Punch } from '@shared/schemas';
import { formatDateTime, madridDay, madridWall, madridWallToUtc } from '@shared/time';
import { Button } from '../../components/Button';
import { Field, TextField, inputClass } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Select } from '../../components/Select';
import { toastError } from '../../toast';
import { addPunch, removePunch } from '../../stores/timeControl';

const C = UI_TIME_CONTROL;
const A = C.addDialog;

/** A Madrid wall date ('2026-11-21') and time ('22:05') as an ISO instant; null when incomplete. */
export function madridInputToIso(day: string, time: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const start = madridWallToUtc(Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]));
  return new Date(start + Number(t[2]) * 60_000).toISOString();
}

const CLOCK_OPTIONS = CLOCK_TYPES.map((v) => ({ value: v, label: CLOCK_TYPE_LABELS[v] }));
const hhmm = (ms: number) => {
  const w = madridWall(ms);
  return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
};

/** Adds a forgotten punch to `driver`'s record; closed while `driver` is null. */
export function AddPunchDialog({ driver, onClose }: { driver: DailySummary | null; onClose: () => void }) {
  const [clockType, setClockType] = useState<ClockType>('entrada');
  const [day, setDay] = useState('');
  const [time, setTime] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Each opening starts afresh: the opposite of the driver's last punch, today, now (Madrid).
  useEffect(() => {
    if (!driver) return;
    const last = driver.punches.at(-1);
    setClockType(last?.clock_type === 'entrada' ? 'salida' : 'entrada');
    setDay(madridDay(Date.now()));
    setTime(hhmm(Date.now()));
    setReason('');
    setError(null);
  }, [driver]);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!driver) return;
    const timestamp = madridInputToIso(day, time);
    if (!timestamp) return setError(A.whenRequired);
    if (!reason.trim()) return setError(A.reasonRequired);
    const parsed = addPunchSchema.safeParse({
      user_id: driver.user_id,
      clock_type: clockType,
      timestamp,
      reason,
    });
    if (!parsed.success) return setError(zodDetail(parsed.error));
    setError(null);
    setBusy(true);
    try {
      toast.success(await addPunch(parsed.data));
      onClose();
    } catch (err) {
      toastError(err, C.correctionError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={driver !== null}
      onOpenChange={(o) => !o && !busy && onClose()}
      dismissible={!busy}
      title={driver ? A.title(driver.user_name) : ''}
      description={A.description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button type="submit" form="add-punch-form" loading={busy}>
            {A.submit}
          </Button>
        </>
      }
    >
      <form id="add-punch-form" className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        <Field label={A.type}>
          {({ id }) => <Select id={id} value={clockType} onChange={setClockType} options={CLOCK_OPTIONS} />}
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label={A.date}>
            {(control) => (
              <input
                {...control}
                type="date"
                className={inputClass}
                value={day}
                max={madridDay(Date.now())}
                onChange={(e) => setDay(e.target.value)}
              />
            )}
          </Field>
          <Field label={A.time}>
            {(control) => (
              <input
                {...control}
                type="time"
                className={inputClass}
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            )}
          </Field>
        </div>
        <TextField
          label={A.reason}
          placeholder={A.reasonPlaceholder}
          value={reason}
          maxLength={TEXT_MAX}
          onChange={(e) => setReason(e.target.value)}
          error={error}
        />
      </form>
    </Modal>
  );
}

/** Confirms removing a wrong punch, with the reason the history keeps; closed while `target` is null. */
export function RemovePunchDialog({
  target,
  onClose,
}: {
  target: { row: DailySummary; punch: Punch } | null;
  onClose: () => void;
}) {
  const D = C.removeDialog;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setReason('');
    setError(null);
  }, [target]);

  const confirm = async () => {
    if (!target) return;
    if (!reason.trim()) {
      setError(A.reasonRequired);
      throw new Error(A.reasonRequired); // keeps the dialog open
    }
    try {
      toast.success(await removePunch(target.punch.id, reason));
    } catch (err) {
      toastError(err, C.correctionError);
      throw err;
    }
  };

  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(o) => !o && onClose()}
      title={D.title}
      message={
        target
          ? D.message(
              target.row.user_name,
              CLOCK_TYPE_LABELS[target.punch.clock_type],
              formatDateTime(target.punch.timestamp),
            )
          : ''
      }
      confirmLabel={D.confirm}
      onConfirm={confirm}
    >
      <TextField
        label={D.reason}
        placeholder={D.reasonPlaceholder}
        value={reason}
        maxLength={TEXT_MAX}
        onChange={(e) => setReason(e.target.value)}
        error={error}
      />
    </ConfirmDialog>
  );
}
