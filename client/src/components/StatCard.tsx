import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from './cn';
import { ACCENT_TONE, type Tone } from './tones';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  tone?: Tone;
  /** A line under the figure, e.g. 'de 12 online'. */
  hint?: ReactNode;
  className?: string;
}

export function StatCard({ label, value, icon, tone = 'slate', hint, className }: StatCardProps) {
  return (
    <div
      className={cn(
        'flex items-center gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200',
        className,
      )}
    >
      {icon && (
        <div className={cn('grid size-11 shrink-0 place-items-center rounded-lg', ACCENT_TONE[tone])}>
          {icon}
        </div>
      )}
      <div className="min-w-0">
        {/* On a phone's two columns a long label wraps, a size smaller, rather than being cut. */}
        <p className="truncate text-sm font-medium text-slate-500 max-sm:text-xs max-sm:whitespace-normal">
          {label}
        </p>
        <p className="text-2xl font-bold tabular-nums text-slate-900">{value}</p>
        {hint && <p className="truncate text-xs text-slate-500">{hint}</p>}
      </div>
    </div>
  );
}

export interface StatItem extends Omit<StatCardProps, 'icon' | 'className'> {
  icon: LucideIcon;
}

/** The row of figures above a supervision list: two columns on a phone, four on a desk. */
export function StatGrid({ items }: { items: StatItem[] }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map(({ icon: Icon, ...card }) => (
        <StatCard key={card.label} {...card} icon={<Icon aria-hidden className="size-5" />} />
      ))}
    </div>
  );
}
