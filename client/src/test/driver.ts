// jsdom test helper: the driver's active task as the stores hold it (stores/driver.ts, stores/tasks.ts).
import type { Task } from '@shared/schemas';
import { useDriver } from '../stores/driver';
import { useTasks } from '../stores/tasks';

/**
 * Shows `task` as the driver's active task (its data in the board's store, its id in the driver's), or
 * none with null — what the screen would hold after loading it.
 */
export function setActiveTask(task: Task | null): void {
  if (task) useTasks.getState().apply(task);
  useDriver.setState({ activeId: task?.id ?? null, activeLoaded: true });
}
