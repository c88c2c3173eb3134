import { TaskForm, useTaskFormAhead } from '../../components/board/TaskForm';
import { useUi } from '../../stores/ui';

/** The header's 'Nueva Tarea' (SPEC §2), opened through useUi.createTaskOpen (prefilled by useUi.openCreateTask). */
export function CreateTaskDialog() {
  const open = useUi((s) => s.createTaskOpen);
  const setOpen = useUi((s) => s.setCreateTaskOpen);
  const draft = useUi((s) => s.createTaskDraft);
  useTaskFormAhead();
  return <TaskForm open={open} onOpenChange={setOpen} draft={draft} />;
}
