// A task's deadline on a card (CONTRACT §20): `Antes de 21:30`, `Faltan 25 min` (amber in the last 30),
// `Retrasada 12 min` in red; a finished task's lateness. Used by the desktop card, the phone's active
// card and the Swap list; live on the board's shared clock.
import { AlarmClock } from 'lucide-react';
import type { DeadlineTone } from '@shared/deadline';
import type { Task } from '@shared/schemas';
import { UI_DEADLINE } from '@shared/labels';
import { cn } from '../cn';
import { BADGE_TONE, type Tone } from '../tones';
import { useDeadline } from './hooks';

/** The badge colour of a deadline's (or a waiting timer's) tone. */
export const DEADLINE_BADGE: Record<DeadlineTone, Tone> = { neutral: 'slate', amber: 'amber', red: 'red' };

interface Props {
  task: Pick<Task, 'due_at' | 'late_s' | 'status'>;
  className?: string;
  /** The phone's active card reads larger. */
  large?: boolean;
}

export function DeadlineChip({ task, className, large }: Props) {
  const label = useDeadline(task);
  if (!label) return null;
  return (
    <span
      data-testid="deadline"
      data-tone={label.tone}
      title={task.status === 'finalizada' ? UI_DEADLINE.lateness : UI_DEADLINE.field}
      className={cn(
        'inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-0.5 font-semibold tabular-nums ring-1 ring-inset',
        large ? 'text-base' : 'text-xs',
        className,
        BADGE_TONE[DEADLINE_BADGE[label.tone]],
        label.tone === 'red' && 'bg-red-600 text-white ring-red-700',
      )}
    >
      <AlarmClock aria-hidden className={large ? 'size-4' : 'size-3.5'} />
      {label.text}
    </span>
  );
}
