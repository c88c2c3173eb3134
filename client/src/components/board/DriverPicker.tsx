// The staff's driver picker (CONTRACT §5): a pool task dropped on En Proceso, or 'Asignar'/'Reasignar' on
// a card, asks who will do it. Fed by GET /tasks/{id}/eligible-drivers (available first); busy drivers are
// shown but cannot be chosen. The chosen driver is handed back; the board makes the (optimistic) move.
import { useEffect, useState } from 'react';
import { Circle } from 'lucide-react';
import type { EligibleDriver, Task } from '@shared/schemas';
import { UI_BOARD, UI_COMMON } from '@shared/labels';
import { api, errorText } from '../../api';
import { Badge } from '../Badge';
import { Button } from '../Button';
import { cn } from '../cn';
import { EmptyState } from '../EmptyState';
import { Modal } from '../Modal';
import { Spinner } from '../Spinner';
import type { Tone } from '../tones';

interface DriverPickerProps {
  task: Task | null;
  onOpenChange: (open: boolean) => void;
  onPick: (driver: EligibleDriver) => void;
}

function stateOf(d: EligibleDriver, task: Task): { text: string; tone: Tone } {
  if (d.id === task.assigned_to) return { text: UI_BOARD.picker.current, tone: 'blue' };
  if (d.busy) return { text: UI_BOARD.picker.busy, tone: 'red' };
  if (d.available) return { text: UI_BOARD.picker.available, tone: 'green' };
  if (!d.is_online) return { text: UI_BOARD.picker.offline, tone: 'slate' };
  return { text: UI_BOARD.picker.notClockedIn, tone: 'amber' };
}

export function DriverPicker({ task, onOpenChange, onPick }: DriverPickerProps) {
  const [drivers, setDrivers] = useState<EligibleDriver[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const taskId = task?.id;

  useEffect(() => {
    if (!taskId) return;
    let live = true;
    setDrivers(null);
    setError(null);
    setChosen(null);
    api
      .get<EligibleDriver[]>(`/tasks/${taskId}/eligible-drivers`)
      .then((list) => {
        if (!live) return;
        setDrivers(list);
        // The first available driver is the natural choice; a busy one never is.
        setChosen(list.find((d) => d.available && !d.busy)?.id ?? null);
      })
      .catch((err: unknown) => live && setError(errorText(err, UI_BOARD.picker.loadError)));
    return () => {
      live = false;
    };
  }, [taskId]);

  const pick = () => {
    const driver = drivers?.find((d) => d.id === chosen);
    if (driver) onPick(driver);
  };

  if (!task) return null;
  return (
    <Modal
      open
      onOpenChange={onOpenChange}
      title={UI_BOARD.picker.title}
      description={UI_BOARD.picker.description(`${task.title} ${task.trailer_id}`)}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {UI_COMMON.cancel}
          </Button>
          <Button onClick={pick} disabled={!chosen}>
            {UI_BOARD.picker.confirm}
          </Button>
        </>
      }
    >
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : drivers === null ? (
        <p role="status" className="flex items-center gap-2 py-6 text-sm text-slate-500">
          <Spinner /> {UI_BOARD.picker.loading}
        </p>
      ) : drivers.length === 0 ? (
        <EmptyState title={UI_BOARD.picker.empty} hint={UI_BOARD.picker.emptyHint} />
      ) : (
        <div role="radiogroup" aria-label={UI_BOARD.picker.title} className="space-y-1.5">
          {drivers.map((d) => {
            const state = stateOf(d, task);
            const selectable = !d.busy;
            return (
              <label
                key={d.id}
                data-testid="eligible-driver"
                data-available={d.available}
                className={cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2.5 ring-1 ring-inset',
                  selectable
                    ? 'cursor-pointer ring-slate-200 hover:bg-slate-50'
                    : 'cursor-not-allowed opacity-60 ring-slate-100',
                  chosen === d.id && 'bg-blue-50 ring-2 ring-blue-500',
                )}
              >
                <input
                  type="radio"
                  name="driver"
                  value={d.id}
                  checked={chosen === d.id}
                  disabled={!selectable}
                  onChange={() => setChosen(d.id)}
                  className="size-4 accent-blue-600"
                />
                <Circle
                  aria-hidden
                  className={cn(
                    'size-2.5 shrink-0',
                    d.is_online ? 'fill-emerald-500 text-emerald-500' : 'fill-slate-300 text-slate-300',
                  )}
                />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">{d.name}</span>
                  <span className="block text-xs text-slate-500">
                    {UI_BOARD.picker.movements(d.movements_count)}
                  </span>
                </span>
                <Badge tone={state.tone}>{state.text}</Badge>
              </label>
            );
          })}
        </div>
      )}
    </Modal>
  );
}
