import { BellRing, LogIn, Volume2 } from 'lucide-react';
import { TOAST, UI_DRIVER } from '@shared/labels';
import { Button } from '../../components/Button';
import { unlockAudio, useSound } from '../../sound';
import { useTaskAlert } from './useNewTaskAlert';

const A = UI_DRIVER.alert;

/** CONTRACT §16: the ringing new-task alert, with `Entendido` to stop its repeats. */
export function NewTaskAlertBar() {
  const pending = useTaskAlert((s) => s.pending);
  const acknowledge = useTaskAlert((s) => s.acknowledge);
  if (!pending) return null;
  return (
    <div
      role="alert"
      data-testid="new-task-alert"
      className="flex items-center gap-3 rounded-xl bg-blue-600 px-3 py-2 text-white shadow-md"
    >
      <BellRing aria-hidden className="size-6 shrink-0 motion-safe:animate-pulse" />
      {/* One line each: the task itself is right below, in 'Mi Tarea Activa'. */}
      <p className="min-w-0 flex-1">
        <span className="block text-base font-bold">{TOAST.newTaskAssigned}</span>
        <span className="block truncate text-sm" title={pending.message}>
          {pending.message}
        </span>
      </p>
      <Button variant="secondary" size="lg" className="shrink-0" onClick={acknowledge}>
        {A.acknowledge}
      </Button>
    </div>
  );
}

/**
 * CONTRACT §16: after a reload the browser holds audio back until the page is touched; the alerts
 * would be silent, so the screen asks for that tap (not shown while the driver muted the sound).
 */
export function SoundLockedPrompt() {
  const show = useSound((s) => s.locked && !s.muted);
  if (!show) return null;
  return (
    <button
      type="button"
      data-testid="sound-locked"
      onClick={unlockAudio}
      className="flex min-h-12 w-full items-center justify-center gap-2 rounded-xl bg-amber-400 px-4 py-3 text-base font-bold text-amber-950 shadow-sm ring-1 ring-amber-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600"
    >
      <Volume2 aria-hidden className="size-5 shrink-0" />
      {A.soundBlocked}
    </button>
  );
}

/** CONTRACT §16: not clocked in — said at the top of the screen, the Entrada button right below it. */
export function ClockInPrompt({ children }: { children: React.ReactNode }) {
  return (
    <section aria-labelledby="clock-in-prompt" data-testid="clock-in-prompt" className="space-y-2">
      <p
        id="clock-in-prompt"
        className="flex items-center gap-2 rounded-xl bg-amber-50 px-4 py-3 text-base font-bold text-amber-950 ring-1 ring-amber-300"
      >
        <LogIn aria-hidden className="size-5 shrink-0" />
        {UI_DRIVER.activeTask.clockInPrompt}
      </p>
      {children}
    </section>
  );
}
