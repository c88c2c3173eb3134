import { useState } from 'react';
import { ROLES, type Role } from '@shared/enums';
import { TOAST, UI_USERS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { RoleBadge } from '../../components/Badge';
import { useUsers } from '../../stores/users';
import { ChoiceRow, UserEditDialog } from './UserEditDialog';

const T = UI_USERS.roleDialog;

/** SPEC §2/§5 change-role dialog: the four roles; confirm stays disabled while the choice is the current role. */
export function RoleDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [role, setRole] = useState<Role>(user.role);
  const unchanged = role === user.role;

  return (
    <UserEditDialog
      title={T.title}
      description={T.description(user.name)}
      legend={T.legend}
      confirmLabel={T.confirm}
      unchanged={unchanged}
      save={() => useUsers.getState().changeRole(user.id, role)}
      errorFallback={TOAST.changeRoleError}
      onClose={onClose}
      footnote={
        !unchanged && (
          <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
            {T.warning}
            {user.role === 'conductor' && ` ${T.driverWarning}`}
          </p>
        )
      }
    >
      {(busy) =>
        ROLES.map((r) => (
          <ChoiceRow key={r} chosen={r === role}>
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
          </ChoiceRow>
        ))
      }
    </UserEditDialog>
  );
}
