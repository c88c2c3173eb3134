import type { ReactNode } from 'react';
import { Inbox } from 'lucide-react';
import { cn } from './cn';

interface EmptyStateProps {
  title: string;
  hint?: ReactNode;
  icon?: ReactNode;
  /** A button to act on the emptiness (retry, clear filters…). */
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ title, hint, icon, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-4 py-10 text-center', className)}>
      <div className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-400">
        {icon ?? <Inbox aria-hidden className="size-6" />}
      </div>
      <p className="font-semibold text-slate-700">{title}</p>
      {hint && <p className="max-w-sm text-sm text-slate-500">{hint}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
