// SPEC §2 stat cards: the yard at a glance. Usuarios Pendientes only for admin.
import { CircleCheck, Inbox, LoaderCircle, Truck, UserCheck, UserPlus, type LucideIcon } from 'lucide-react';
import type { Role } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { UI_BOARD } from '@shared/labels';
import { StatCard, type StatCardProps } from '../../components/StatCard';
import { can } from '../../permissions';
import { useStats } from '../../stores/stats';
import { useTasks } from '../../stores/tasks';

/** Drivers holding a task while their phone is offline (the board knows each assignee's presence). */
const busyOffline = (tasks: Record<string, Task>): number =>
  new Set(
    Object.values(tasks)
      .filter((t) => t.status === 'en_proceso' && t.assigned_to && t.assignee_online === false)
      .map((t) => t.assigned_to),
  ).size;

const dash = '–';

export function StatCards({ role }: { role: Role }) {
  const stats = useStats((s) => s.stats);
  const offline = useTasks((s) => busyOffline(s.byId));
  const t = UI_BOARD.stats;
  const admin = can(role, 'approveUsers');
  const cards: (StatCardProps & { key: string; Icon: LucideIcon })[] = [
    { key: 'pool', label: t.pool, value: stats?.bolsa_trabajo ?? dash, tone: 'amber', Icon: Inbox },
    {
      key: 'progress',
      label: t.inProgress,
      value: stats?.en_proceso ?? dash,
      tone: 'blue',
      Icon: LoaderCircle,
    },
    {
      key: 'finished',
      label: t.finished,
      value: stats?.finalizada ?? dash,
      tone: 'green',
      Icon: CircleCheck,
    },
    {
      key: 'available',
      label: t.available,
      value: stats?.available_drivers ?? dash,
      hint: stats ? t.availableOf(stats.online_drivers) : ' ',
      tone: 'teal',
      Icon: UserCheck,
    },
    {
      key: 'busy',
      label: t.busy,
      value: stats?.busy_drivers ?? dash,
      // Busy drivers offline are not among the online ones: said, so the cards add up.
      hint:
        stats && offline > 0
          ? t.busyOnline(Math.max(0, stats.busy_drivers - offline), Math.min(offline, stats.busy_drivers))
          : undefined,
      tone: 'indigo',
      Icon: Truck,
    },
  ];
  if (admin)
    cards.push({
      key: 'pending',
      label: t.pendingUsers,
      value: stats?.pending_users ?? dash,
      tone: stats?.pending_users ? 'orange' : 'slate',
      Icon: UserPlus,
    });
  return (
    <section
      aria-label={t.label}
      data-testid="stat-cards"
      // Long labels wrap instead of being cut on a phone's two columns.
      className={`grid grid-cols-2 gap-3 sm:grid-cols-3 [&_p]:whitespace-normal ${admin ? 'xl:grid-cols-6' : 'xl:grid-cols-5'}`}
    >
      {cards.map(({ key, Icon, ...card }) => (
        <StatCard key={key} {...card} icon={<Icon aria-hidden className="size-6" />} />
      ))}
    </section>
  );
}
