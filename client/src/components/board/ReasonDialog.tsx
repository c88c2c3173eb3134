// The board's confirmations that ask an optional reason: the driver's 'Devolver' (a reason from a fixed
// list, CONTRACT §5) and staff 'Retener' (free text, CONTRACT §15). Mount it when it should show: each
// opening starts with no reason.
import { useState } from 'react';
import { ConfirmDialog } from '../ConfirmDialog';
import { inputClass } from '../Field';

/** The reason's field: a list to pick from (after the no-reason choice), or free text. */
export type ReasonField<R extends string> =
  { options: readonly R[]; noReason: string } | { placeholder: string; maxLength: number };

interface ReasonDialogProps<R extends string> {
  /** The dialog's texts (shared/labels); `message` says what happens to `subject`. */
  texts: { title: string; message: (subject: string) => string; reason: string; confirm: string };
  subject: string;
  field: ReasonField<R>;
  onOpenChange: (open: boolean) => void;
  /** Runs the action with the trimmed reason (null without one); when it throws the dialog stays open. */
  onConfirm: (reason: R | null) => Promise<unknown>;
}

export function ReasonDialog<R extends string>({
  texts,
  subject,
  field,
  onOpenChange,
  onConfirm,
}: ReasonDialogProps<R>) {
  const [reason, setReason] = useState('');
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      variant="warning"
      title={texts.title}
      message={texts.message(subject)}
      confirmLabel={texts.confirm}
      // A list offers only its options (R); free text is any string, and then R is string.
      onConfirm={() => onConfirm((reason.trim() || null) as R | null)}
    >
      <label className="block space-y-1.5">
        <span className="block text-sm font-medium text-slate-700">{texts.reason}</span>
        {'options' in field ? (
          <select value={reason} onChange={(e) => setReason(e.target.value)} className={inputClass}>
            <option value="">{field.noReason}</option>
            {field.options.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          <input
            value={reason}
            maxLength={field.maxLength}
            onChange={(e) => setReason(e.target.value)}
            placeholder={field.placeholder}
            className={inputClass}
          />
        )}
      </label>
    </ConfirmDialog>
  );
}
