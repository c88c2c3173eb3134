// A refusal shown inside a form or dialog (the server's Spanish `detail`), announced to screen readers.
import type { ReactNode } from 'react';
import { cn } from './cn';

export function FormAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="alert"
      className={cn(
        'rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-inset ring-red-200',
        className,
      )}
    >
      {children}
    </div>
  );
}
