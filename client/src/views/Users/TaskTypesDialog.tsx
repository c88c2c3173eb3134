import { useId, useState } from 'react';
import { toast } from 'sonner';
import { isAutoAssigned, VEHICLE_TYPES, type VehicleType } from '@shared/enums';
import { ERR, TASK_TYPE_LABELS, TOAST, UI_USERS, VEHICLE_BADGES } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { useUsers } from '../../stores/users';
import { ChoiceRow, UserEditDialog } from './UserEditDialog';

const T = UI_USERS.taskTypesDialog;

/**
 * SPEC §2/§5 task-types dialog: Semi / Semi Out / Swap. The last checked type cannot be unchecked; a
 * driver who has none (an integrity issue) cannot be saved with none either.
 */
export function TaskTypesDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [types, setTypes] = useState<VehicleType[]>(user.task_types);
  const id = useId();

  const toggle = (type: VehicleType) => {
    if (!types.includes(type)) return setTypes(VEHICLE_TYPES.filter((t) => t === type || types.includes(t)));
    if (types.length === 1) return void toast.error(T.lastOne);
    setTypes(types.filter((t) => t !== type));
  };

  const save = () => {
    if (types.length > 0) return useUsers.getState().setTaskTypes(user.id, types);
    toast.error(ERR.taskTypesRequired);
    return null;
  };

  return (
    <UserEditDialog
      title={T.title}
      description={T.description(user.name)}
      legend={T.legend}
      confirmLabel={T.confirm}
      save={save}
      errorFallback={TOAST.taskTypesError}
      onClose={onClose}
      footnote={<p className="mt-4 text-xs text-slate-500">{T.keepsTask}</p>}
    >
      {(busy) =>
        VEHICLE_TYPES.map((type) => (
          <ChoiceRow key={type} chosen={types.includes(type)}>
            <input
              type="checkbox"
              checked={types.includes(type)}
              onChange={() => toggle(type)}
              disabled={busy}
              aria-labelledby={`${id}-${type}`}
              aria-describedby={`${id}-${type}-hint`}
              className="size-4 accent-blue-600"
            />
            <span className="min-w-0">
              <span id={`${id}-${type}`} className="block text-sm font-semibold text-slate-900">
                {TASK_TYPE_LABELS[type]}
              </span>
              <span id={`${id}-${type}-hint`} className="block text-xs text-slate-500">
                {VEHICLE_BADGES[type]} · {isAutoAssigned(type) ? T.automatic : T.manual}
              </span>
            </span>
          </ChoiceRow>
        ))
      }
    </UserEditDialog>
  );
}
