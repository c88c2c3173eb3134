import { MapPinCheck } from 'lucide-react';
import type { Task } from '@shared/schemas';
import { PROOF_TEXT } from '@shared/labels';
import { cn } from '../cn';

/** CONTRACT §20: where a finished task's trailer was really left, when not at its destination. */
export function DroppedAt({ task, className }: { task: Task; className?: string }) {
  if (task.status !== 'finalizada' || !task.dropped_at_location_name) return null;
  return (
    <p
      data-testid="dropped-at"
      className={cn('flex items-center gap-1.5 text-sm font-semibold text-amber-800', className)}
    >
      <MapPinCheck aria-hidden className="size-4 shrink-0" />
      {PROOF_TEXT.droppedAt(task.dropped_at_location_name)}
    </p>
  );
}
