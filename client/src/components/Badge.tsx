import type { ReactNode } from 'react';
import type { Priority, Role, TaskStatus, VehicleType } from '@shared/enums';
import { PRIORITY_LABELS, ROLE_LABELS, STATUS_BADGES, VEHICLE_BADGES } from '@shared/labels';
import { cn } from './cn';
import { BADGE_TONE, PRIORITY_TONE, ROLE_TONE, STATUS_TONE, VEHICLE_TONE, type Tone } from './tones';

interface BadgeProps {
  tone?: Tone;
  children: ReactNode;
  className?: string;
  /** Solid look for the strongest signals (e.g. EN PROCESO on the driver's card). */
  solid?: boolean;
}

const SOLID: Record<Tone, string> = {
  slate: 'bg-slate-700 text-white',
  red: 'bg-red-600 text-white',
  orange: 'bg-orange-500 text-white',
  amber: 'bg-amber-500 text-white',
  yellow: 'bg-yellow-400 text-yellow-950',
  green: 'bg-emerald-600 text-white',
  teal: 'bg-teal-600 text-white',
  sky: 'bg-sky-600 text-white',
  blue: 'bg-blue-600 text-white',
  indigo: 'bg-indigo-600 text-white',
  purple: 'bg-purple-600 text-white',
};

export function Badge({ tone = 'slate', solid, children, className }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap rounded-md px-2 py-0.5 text-xs font-semibold',
        solid ? SOLID[tone] : cn('ring-1 ring-inset', BADGE_TONE[tone]),
        className,
      )}
    >
      {children}
    </span>
  );
}

export const RoleBadge = ({ role }: { role: Role }) => (
  <Badge tone={ROLE_TONE[role]}>{ROLE_LABELS[role]}</Badge>
);

/** The searcher's wording (Pendiente / En Proceso / Finalizada). */
export const StatusBadge = ({ status }: { status: TaskStatus }) => (
  <Badge tone={STATUS_TONE[status]}>{STATUS_BADGES[status]}</Badge>
);

export const PriorityBadge = ({ priority }: { priority: Priority }) => (
  <Badge tone={PRIORITY_TONE[priority]}>{PRIORITY_LABELS[priority]}</Badge>
);

export const VehicleBadge = ({ type }: { type: VehicleType }) => (
  <Badge tone={VEHICLE_TONE[type]}>{VEHICLE_BADGES[type]}</Badge>
);
