import type { ReactNode } from 'react';
import { cn } from './cn';

interface CardProps {
  title?: ReactNode;
  icon?: ReactNode;
  /** Right side of the header: a count badge, a refresh button… */
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  bodyClassName?: string;
}

/** The white panel every view is built from. The title is an h2 so screen readers can jump between cards. */
export function Card({ title, icon, actions, children, className, bodyClassName }: CardProps) {
  return (
    <section className={cn('rounded-xl bg-white shadow-sm ring-1 ring-slate-200', className)}>
      {(title || actions) && (
        // A title and actions that do not fit on one line (a phone) wrap: the title keeps its words.
        <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-b border-slate-100 px-4 py-3">
          <h2 className="flex min-w-0 items-center gap-2 text-base font-semibold text-slate-900">
            {icon && <span className="shrink-0 text-slate-500">{icon}</span>}
            <span className="truncate">{title}</span>
          </h2>
          {actions && <div className="ml-auto flex shrink-0 items-center gap-2">{actions}</div>}
        </header>
      )}
      <div className={cn('p-4', bodyClassName)}>{children}</div>
    </section>
  );
}
