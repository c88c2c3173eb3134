import type { ReactNode } from 'react';
import { UI_COMMON } from '@shared/labels';
import { Button } from './Button';
import { EmptyState } from './EmptyState';
import { Spinner } from './Spinner';

/** What a view shows before its first load: a spinner, or the load error with a retry button. */
export function LoadFallback({
  failed,
  errorTitle,
  onRetry,
  retrying = false,
  icon,
}: {
  failed: boolean;
  errorTitle: string;
  onRetry: () => void;
  retrying?: boolean;
  icon?: ReactNode;
}) {
  if (failed)
    return (
      <EmptyState
        icon={icon}
        title={errorTitle}
        action={
          <Button variant="secondary" onClick={onRetry} loading={retrying}>
            {UI_COMMON.retry}
          </Button>
        }
      />
    );
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-500">
      <Spinner />
      {UI_COMMON.loading}
    </p>
  );
}
