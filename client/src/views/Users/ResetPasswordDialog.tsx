import { useId, useRef, useState } from 'react';
import { Check, Copy, KeyRound, LogOut, TriangleAlert } from 'lucide-react';
import { toast } from 'sonner';
import { TOAST, UI_USERS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { useUsers } from '../../stores/users';
import { toastError } from '../../toast';

const T = UI_USERS.temporaryPassword;

/**
 * CONTRACT §14 admin password reset: confirm first; then the temporary password, shown once, with a
 * copy button, and what happens next (the user must change it at the next login; their sessions were
 * closed by the reset).
 */
export function ResetPasswordDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [temporary, setTemporary] = useState<string | null>(null);
  // ConfirmDialog closes itself once the reset resolves: that close must not close this dialog.
  const done = useRef(false);

  const reset = async () => {
    try {
      const password = await useUsers.getState().resetPassword(user.id);
      done.current = true;
      setTemporary(password);
    } catch (err) {
      toastError(err, TOAST.resetPasswordError);
      throw err;
    }
  };

  if (temporary === null)
    return (
      <ConfirmDialog
        open
        onOpenChange={(open) => !open && !done.current && onClose()}
        title={UI_USERS.resetDialog.title}
        message={UI_USERS.resetDialog.message(user.name, user.email)}
        confirmLabel={UI_USERS.resetDialog.confirm}
        variant="warning"
        onConfirm={reset}
      />
    );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={T.title}
      description={T.description(user.name)}
      footer={<Button onClick={onClose}>{T.done}</Button>}
    >
      <div className="space-y-4">
        <TemporaryPassword value={temporary} />
        <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-inset ring-amber-200">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          {T.onlyOnce}
        </p>
        <ul className="space-y-2 text-sm text-slate-600">
          <li className="flex gap-2">
            <KeyRound aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
            {T.mustChange(user.name)}
          </li>
          <li className="flex gap-2">
            <LogOut aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
            {T.sessionsClosed}
          </li>
        </ul>
      </div>
    </Modal>
  );
}

function TemporaryPassword({ value }: { value: string }) {
  const labelId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(value, box.current ?? document.body)) {
      setCopied(true);
      toast.success(TOAST.copied);
      setTimeout(() => setCopied(false), 2000);
    } else toast.error(TOAST.copyError);
  };
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-slate-700" id={labelId}>
        {T.label}
      </p>
      <div ref={box} className="flex items-stretch gap-2">
        <output
          aria-labelledby={labelId}
          data-testid="temporary-password"
          className="flex min-w-0 flex-1 select-all items-center break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg font-semibold tracking-wide text-slate-900 ring-1 ring-inset ring-slate-300"
        >
          {value}
        </output>
        <Button variant="secondary" className="h-auto" onClick={() => void copy()}>
          {copied ? (
            <Check aria-hidden className="size-4 text-emerald-600" />
          ) : (
            <Copy aria-hidden className="size-4" />
          )}
          {copied ? T.copied : T.copy}
        </Button>
      </div>
    </div>
  );
}

/**
 * The Clipboard API needs a secure context (HTTPS or localhost); a yard LAN over plain HTTP has not, so
 * then a hidden textarea is copied — placed inside the dialog, whose focus trap would undo its selection.
 */
async function copyText(text: string, container: HTMLElement): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  const previous = document.activeElement as HTMLElement | null;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  container.appendChild(area);
  area.focus();
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    previous?.focus();
  }
}
