import { Construction } from 'lucide-react';
import type { View } from '@shared/enums';
import { UI_COMMON, VIEW_LABELS } from '@shared/labels';
import { Card } from './Card';
import { EmptyState } from './EmptyState';

/** What a view shows until it is built: an honest notice, never sample data. */
export function ViewPlaceholder({ view }: { view: View | 'driver' }) {
  return (
    <Card title={view === 'driver' ? undefined : VIEW_LABELS[view]}>
      <EmptyState
        icon={<Construction aria-hidden className="size-6" />}
        title={UI_COMMON.notYetAvailable}
        hint={UI_COMMON.notYetAvailableHint}
      />
    </Card>
  );
}
