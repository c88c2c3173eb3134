import { useState } from 'react';
import { toast } from 'sonner';
import { ROLES, type Role } from '@shared/enums';
import { TOAST, UI_COMMON, UI_USERS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { RoleBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { Modal } from '../../components/Modal';
import { useUsers } from '../../stores/users';
import { toastError } from '../../toast';

const T = UI_USERS.roleDialog;

/** SPEC §2/§5 change-role dialog: the four roles; confirm stays disabled while the choice is the current role. */
export function RoleDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [role, setRole] = useState<Role>(user.role);
  const [busy, setBusy] = useState(false);
  const unchanged = role === user.role;

  const submit = async () => {
    setBusy(true);
    try {
      toast.success(await useUsers.getState().changeRole(user.id, role));
      onClose();
    } catch (err) {
      toastError(err, TOAST.changeRoleError);
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      title={T.title}
      description={T.description(user.name)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {UI_COMMON.cancel}
          </Button>
          <Button onClick={() => void submit()} disabled={unchanged} loading={busy}>
            {T.confirm}
          </Button>
        </>
      }
    >
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">{T.legend}</legend>
        {ROLES.map((r) => (
          <label
            key={r}
            className={cn(
              'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors',
              r === role ? 'bg-blue-50 ring-blue-400' : 'ring-slate-200 hover:bg-slate-50',
            )}
          >
            <input
              type="radio"
              name="role"
              value={r}
              checked={r === role}
              onChange={() => setRole(r)}
              disabled={busy}
              className="size-4 accent-blue-600"
            />
            <RoleBadge role={r} />
            {r === user.role && <span className="text-xs text-slate-500">({T.current})</span>}
          </label>
        ))}
      </fieldset>
      {!unchanged && (
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
          {T.warning}
          {user.role === 'conductor' && ` ${T.driverWarning}`}
        </p>
      )}
    </Modal>
  );
}
