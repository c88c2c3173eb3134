import { useId, useState } from 'react';
import { toast } from 'sonner';
import { isAutoAssigned, VEHICLE_TYPES, type VehicleType } from '@shared/enums';
import { ERR, TASK_TYPE_LABELS, TOAST, UI_COMMON, UI_USERS, VEHICLE_BADGES } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { Modal } from '../../components/Modal';
import { useUsers } from '../../stores/users';
import { toastError } from '../../toast';

const T = UI_USERS.taskTypesDialog;

/**
 * SPEC §2/§5 task-types dialog: Semi / Semi Out / Swap. The last checked type cannot be unchecked; a
 * driver who has none (an integrity issue) cannot be saved with none either.
 */
export function TaskTypesDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [types, setTypes] = useState<VehicleType[]>(user.task_types);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const toggle = (type: VehicleType) => {
    if (!types.includes(type)) return setTypes(VEHICLE_TYPES.filter((t) => t === type || types.includes(t)));
    if (types.length === 1) return void toast.error(T.lastOne);
    setTypes(types.filter((t) => t !== type));
  };

  const save = async () => {
    if (types.length === 0) return void toast.error(ERR.taskTypesRequired);
    setBusy(true);
    try {
      toast.success(await useUsers.getState().setTaskTypes(user.id, types));
      onClose();
    } catch (err) {
      toastError(err, TOAST.taskTypesError);
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
          <Button onClick={() => void save()} loading={busy}>
            {T.confirm}
          </Button>
        </>
      }
    >
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">{T.legend}</legend>
        {VEHICLE_TYPES.map((type) => {
          const checked = types.includes(type);
          return (
            <label
              key={type}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors',
                checked ? 'bg-blue-50 ring-blue-400' : 'ring-slate-200 hover:bg-slate-50',
              )}
            >
              <input
                type="checkbox"
                checked={checked}
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
            </label>
          );
        })}
      </fieldset>
      <p className="mt-4 text-xs text-slate-500">{T.keepsTask}</p>
    </Modal>
  );
}
