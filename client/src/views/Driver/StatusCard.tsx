import { ROLE_LABELS, UI_DRIVER } from '@shared/labels';
import { Badge } from '../../components/Badge';
import { useReachability } from '../../offline/reachability';
import { useSession } from '../../stores/session';

const S = UI_DRIVER.status;

/**
 * SPEC §2: the driver's status card — who is logged in on this phone, online and active. Without a server
 * it says `Sin conexión` instead of `Online`: one truth with the offline indicator above it.
 */
export function StatusCard() {
  const user = useSession((s) => s.user);
  const reachable = useReachability((s) => s.reachable);
  if (!user) return null;
  const initials = user.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');
  return (
    <section
      aria-label={S.title}
      data-testid="driver-status"
      className="flex items-center gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div
        aria-hidden
        className="grid size-12 shrink-0 place-items-center rounded-full bg-emerald-600 text-lg font-bold text-white"
      >
        {initials}
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-lg font-bold text-slate-950">{user.name}</p>
        <p className="text-sm text-slate-600">{ROLE_LABELS[user.role]}</p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1.5">
        {reachable ? (
          <Badge tone="green" solid>
            <span aria-hidden className="size-2 rounded-full bg-white" />
            {S.online}
          </Badge>
        ) : (
          <Badge tone="slate" solid>
            <span aria-hidden className="size-2 rounded-full bg-amber-300" />
            {S.offline}
          </Badge>
        )}
        <Badge tone="blue">{S.active}</Badge>
      </div>
    </section>
  );
}
