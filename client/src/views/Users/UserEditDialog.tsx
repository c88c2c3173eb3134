import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { UI_COMMON } from '@shared/labels';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { Modal } from '../../components/Modal';
import { toastError } from '../../toast';

interface Props {
  title: string;
  description: string;
  legend: string;
  confirmLabel: string;
  /** The confirm button is disabled (nothing to save). */
  unchanged?: boolean;
  /** Sends the change and resolves to the server's message; `null` when refused before sending. */
  save: () => Promise<string> | null;
  errorFallback: string;
  onClose: () => void;
  /** The choices, disabled while `busy`. */
  children: (busy: boolean) => ReactNode;
  footnote?: ReactNode;
}

/**
 * The frame of the Usuarios edit dialogs (role, task types): a fieldset of choices, Cancelar and a
 * confirm that saves, toasts the server's message and closes; a refusal keeps the dialog open with the
 * server's detail (SPEC §8).
 */
export function UserEditDialog(props: Props) {
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const saving = props.save();
    if (!saving) return;
    setBusy(true);
    try {
      toast.success(await saving);
      props.onClose();
    } catch (err) {
      toastError(err, props.errorFallback);
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && props.onClose()}
      dismissible={!busy}
      title={props.title}
      description={props.description}
      footer={
        <>
          <Button variant="secondary" onClick={props.onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button onClick={() => void submit()} disabled={props.unchanged} loading={busy}>
            {props.confirmLabel}
          </Button>
        </>
      }
    >
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">{props.legend}</legend>
        {props.children(busy)}
      </fieldset>
      {props.footnote}
    </Modal>
  );
}

/** One choice of the fieldset: the whole row is the label, highlighted when chosen. */
export function ChoiceRow({ chosen, children }: { chosen: boolean; children: ReactNode }) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors',
        chosen ? 'bg-blue-50 ring-blue-400' : 'ring-slate-200 hover:bg-slate-50',
      )}
    >
      {children}
    </label>
  );
}
