import { useState } from 'react';
import { LogOut } from 'lucide-react';
import type { SessionUser } from '@shared/schemas';
import { UI_HEADER } from '@shared/labels';
import { RoleBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { useSession } from '../../stores/session';

/** The user's name and role as the header shows them. */
export function UserIdentity({ user }: { user: SessionUser }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <span className="truncate text-sm font-medium text-white" data-testid="header-user-name">
        {user.name}
      </span>
      <RoleBadge role={user.role} />
    </div>
  );
}

/** Logs out: the server is told (a failure is only logged), the local session always ends. */
export function LogoutButton() {
  const [busy, setBusy] = useState(false);
  const logout = async () => {
    setBusy(true);
    await useSession.getState().logout();
  };
  return (
    <Button
      variant="header"
      size="sm"
      loading={busy}
      aria-label={UI_HEADER.logout}
      title={UI_HEADER.logout}
      onClick={() => void logout()}
    >
      {!busy && <LogOut aria-hidden className="size-5" />}
      <span className="hidden lg:inline">{UI_HEADER.logout}</span>
    </Button>
  );
}
