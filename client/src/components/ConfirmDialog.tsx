import { useState, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { UI_COMMON } from '@shared/labels';
import { Button, type ButtonVariant } from './Button';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, and a warning when it cannot be undone. */
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** 'danger' for destructive actions (delete, reset, clear tokens). */
  variant?: Extract<ButtonVariant, 'primary' | 'danger' | 'success' | 'warning'>;
  /** Runs the action. The dialog closes when it resolves and stays open (for a retry) when it throws. */
  onConfirm: () => Promise<unknown> | unknown;
  children?: ReactNode;
}

/** SPEC §5's confirmation step. Confirm is disabled while the action is in flight. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  cancelLabel = UI_COMMON.cancel,
  variant = 'danger',
  onConfirm,
  children,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // The caller has shown the error; stay open so the user may retry or cancel.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      title={title}
      size="sm"
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={variant} onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="flex gap-3">
        {variant === 'danger' && (
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-500" />
        )}
        <div className="space-y-3 text-sm text-slate-600">
          <div>{message}</div>
          {children}
        </div>
      </div>
    </Modal>
  );
}
