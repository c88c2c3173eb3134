// The create and edit form, loaded when it is first opened rather than with the board: with its place
// autocomplete (CONTRACT §17) it no longer fits the initial JavaScript budget (docs/PERFORMANCE.md).
import { lazy, Suspense, useEffect, type ComponentProps } from 'react';

const load = () => import('./TaskFormModal');
const TaskFormModal = lazy(() => load().then((m) => ({ default: m.TaskFormModal })));

export function TaskForm(props: ComponentProps<typeof TaskFormModal>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <TaskFormModal {...props} />
    </Suspense>
  );
}

/**
 * Fetches the form's code once the screen is idle, so the first 'Nueva Tarea' opens at once. Only where
 * tasks are created (a driver's phone never downloads it).
 */
export function useTaskFormAhead(): void {
  useEffect(() => {
    const ahead = () => void load().catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(ahead);
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(ahead, 1_000);
    return () => clearTimeout(timer);
  }, []);
}
