import { UserCheck } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { Button } from '../../components/Button';
import { usePendingUsers } from '../../stores/pendingUsers';
import { useUi } from '../../stores/ui';

/** Admin only: 'Aprobar Usuarios (N)', shown while N > 0; opens the approval dialog. */
export function ApproveUsersButton({ className }: { className?: string }) {
  const count = usePendingUsers((s) => s.users.length);
  const open = useUi((s) => s.setApprovalOpen);
  if (count === 0) return null;
  const label = UI_HEADER.approveUsers(count);
  return (
    <Button variant="warning" size="sm" aria-label={label} className={className} onClick={() => open(true)}>
      <UserCheck aria-hidden className="size-4" />
      <span aria-hidden className="hidden sm:inline">
        {label}
      </span>
      <span aria-hidden className="tabular-nums sm:hidden">
        {count}
      </span>
    </Button>
  );
}
