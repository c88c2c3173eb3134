import type { SessionUser } from '@shared/schemas';
import { Brand } from './Brand';
import { LinkIndicator } from './LinkIndicator';
import { LogoutButton } from './SessionControls';
import { VolumeControl } from './VolumeControl';

/** SPEC §2: the driver's simplified header — no navigation, just the link, sound, who and logout. */
export function DriverHeader({ user }: { user: SessionUser }) {
  return (
    <header className="sticky top-0 z-30 bg-slate-900 text-white shadow-md">
      <div className="mx-auto flex max-w-6xl items-center gap-2 px-3 py-2.5 sm:px-4">
        <div className="min-w-0 flex-1">
          <Brand />
        </div>
        <span
          className="hidden max-w-48 truncate text-sm font-medium text-slate-200 sm:inline"
          data-testid="header-user-name"
        >
          {user.name}
        </span>
        <LinkIndicator compact />
        <VolumeControl />
        <LogoutButton />
      </div>
    </header>
  );
}
