import { useState } from 'react';
import { Check, Mail, UserCheck, X } from 'lucide-react';
import { toast } from 'sonner';
import { TOAST, UI_APPROVAL } from '@shared/labels';
import type { PendingUser } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { RoleBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { usePendingUsers } from '../../stores/pendingUsers';
import { toastError } from '../../toast';
import { useUi } from '../../stores/ui';

/**
 * SPEC §2 'Aprobar Usuarios Pendientes', opened through useUi.approvalOpen; live from users:pending.
 * Rejecting deletes the registration, so it is confirmed first.
 */
export function ApproveUsersModal() {
  const users = usePendingUsers((s) => s.users);
  const open = useUi((s) => s.approvalOpen);
  const onOpenChange = useUi((s) => s.setApprovalOpen);
  const [rejecting, setRejecting] = useState<PendingUser | null>(null);

  const reject = async (user: PendingUser) => {
    try {
      toast.success(await usePendingUsers.getState().decide(user.id, false));
    } catch (err) {
      toastError(err, TOAST.approvalError);
      throw err;
    }
  };

  return (
    <>
      <Modal
        open={open}
        onOpenChange={onOpenChange}
        size="lg"
        title={UI_APPROVAL.title}
        description={UI_APPROVAL.count(users.length)}
        footer={
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {UI_APPROVAL.close}
          </Button>
        }
      >
        {users.length === 0 ? (
          <EmptyState
            icon={<UserCheck aria-hidden className="size-6" />}
            title={UI_APPROVAL.emptyTitle}
            hint={UI_APPROVAL.emptyHint}
          />
        ) : (
          <ul className="space-y-3" aria-label={UI_APPROVAL.title}>
            {users.map((u) => (
              <PendingUserRow key={u.id} user={u} onReject={() => setRejecting(u)} />
            ))}
          </ul>
        )}
      </Modal>
      <ConfirmDialog
        open={rejecting !== null}
        onOpenChange={(o) => !o && setRejecting(null)}
        title={UI_APPROVAL.rejectConfirm.title}
        message={rejecting ? UI_APPROVAL.rejectConfirm.message(rejecting.name, rejecting.email) : ''}
        confirmLabel={UI_APPROVAL.rejectConfirm.confirm}
        onConfirm={() => rejecting && reject(rejecting)}
      />
    </>
  );
}

function PendingUserRow({ user, onReject }: { user: PendingUser; onReject: () => void }) {
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    setBusy(true);
    try {
      toast.success(await usePendingUsers.getState().decide(user.id, true));
    } catch (err) {
      toastError(err, TOAST.approvalError);
      setBusy(false);
    }
  };
  return (
    <li
      data-testid="pending-user"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center"
    >
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-slate-900">{user.name}</p>
          <RoleBadge role={user.role} />
        </div>
        <p className="flex items-center gap-1.5 text-sm text-slate-600">
          <Mail aria-hidden className="size-3.5 shrink-0" />
          <span className="truncate">{user.email}</span>
        </p>
        <p className="text-sm text-slate-700">{user.request_text}</p>
        <p className="text-xs text-slate-500">
          {UI_APPROVAL.registered}: <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
        </p>
      </div>
      <div className="flex gap-2 sm:flex-col">
        <Button
          variant="success"
          size="sm"
          className="flex-1 sm:flex-none"
          loading={busy}
          onClick={() => void approve()}
        >
          {!busy && <Check aria-hidden className="size-4" />}
          {UI_APPROVAL.approve}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="flex-1 text-red-700 sm:flex-none"
          disabled={busy}
          onClick={onReject}
        >
          <X aria-hidden className="size-4" />
          {UI_APPROVAL.reject}
        </Button>
      </div>
    </li>
  );
}
