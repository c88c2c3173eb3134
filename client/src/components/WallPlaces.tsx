import type { Task } from '@shared/schemas';
import { cn } from './cn';

/**
 * `origin → destination` at the wall's size (CONTRACT §15: places ≥ 22 px): each place stays whole on
 * its line when it fits, and the arrow (after a no-break space) never starts a line by itself.
 */
export function WallPlaces({
  task,
  className,
  arrowClass,
}: {
  task: Pick<Task, 'origin' | 'destination'>;
  className?: string;
  arrowClass: string;
}) {
  return (
    <p data-wall="places" className={cn('mt-1 text-[1.375rem] leading-snug', className)}>
      <span className="inline-block max-w-full break-words">
        {task.origin}
        <span className={arrowClass}>{'\u00a0→'}</span>
      </span>{' '}
      <span className="inline-block max-w-full break-words">{task.destination}</span>
    </p>
  );
}
