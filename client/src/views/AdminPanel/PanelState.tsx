import { CircleX } from 'lucide-react';
import { UI_COMMON } from '@shared/labels';
import { EmptyState } from '../../components/EmptyState';
import { Spinner } from '../../components/Spinner';

/** What a Sistema panel shows before its data: loading, or its SPEC §8 load error. */
export function PanelState({ failed, error }: { failed?: boolean; error: string }) {
  if (failed)
    return <EmptyState icon={<CircleX aria-hidden className="size-6 text-red-500" />} title={error} />;
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-slate-500">
      <Spinner />
      {UI_COMMON.loading}
    </p>
  );
}
