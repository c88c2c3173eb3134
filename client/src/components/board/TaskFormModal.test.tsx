// 'Nueva Tarea' and the edit dialog: SPEC §5 validation, the submit disabled in flight, the trailer's 409
// inside the form (creation errors are otherwise only logged, SPEC §8), the created task in the store.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_BOARD, UI_COMMON, VEHICLE_TYPE_OPTIONS } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { makeTask } from '../../test/tasks';
import { useTasks } from '../../stores/tasks';
import { TaskFormModal } from './TaskFormModal';

/** No pause between keystrokes: this machine is slow enough. */
const user = () => userEvent.setup({ delay: null });

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

/** What the form below creates, as the server answers it. */
const created = makeTask({
  title: 'Recolocar',
  origin: 'Muelle 7',
  destination: 'Campa Sur',
  trailer_id: 'R-77-XYZ',
  priority: 'high',
  vehicle_type: 'swap',
});

beforeEach(() => {
  useTasks.getState().reset();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dialog = () => screen.getByRole('dialog');
const field = (label: string) => within(dialog()).getByLabelText(label);
const submit = (name: string = UI_BOARD.form.create) =>
  user().click(within(dialog()).getByRole('button', { name }));

async function fill() {
  await user().selectOptions(field(UI_BOARD.form.movement), 'Recolocar');
  await user().type(field(UI_BOARD.form.origin), '  Muelle 7 ');
  await user().type(field(UI_BOARD.form.destination), 'Campa Sur');
  await user().type(field(UI_BOARD.form.trailer), 'r-77-xyz');
  await user().selectOptions(field(UI_BOARD.form.priority), 'high');
  await user().selectOptions(field(UI_BOARD.form.vehicleType), VEHICLE_TYPE_OPTIONS.swap);
}

describe('Nueva Tarea', { timeout: 20_000 }, () => {
  it('requires movement type, origin, destination and trailer, and sends nothing', async () => {
    const fetch = mockFetch(() => json(201, created));
    render(<TaskFormModal open onOpenChange={vi.fn()} />);
    expect(field(UI_BOARD.form.priority)).toHaveValue('normal');
    expect(field(UI_BOARD.form.vehicleType)).toHaveValue('semiremolque');
    await submit();
    for (const text of [
      'El tipo de movimiento es obligatorio',
      'El origen es obligatorio',
      'El destino es obligatorio',
      'El remolque es obligatorio',
    ])
      expect(within(dialog()).getByText(text)).toBeInTheDocument();
    expect(field(UI_BOARD.form.trailer)).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates: trimmed and upper-cased payload, disabled while in flight, toast, task in the store, closed', async () => {
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((r) => (answer = r)));
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} />);
    await fill();
    await submit();
    expect(within(dialog()).getByRole('button', { name: UI_BOARD.form.creating })).toBeDisabled();
    expect(sentBody(fetch)).toEqual({
      title: 'Recolocar',
      origin: 'Muelle 7',
      destination: 'Campa Sur',
      trailer_id: 'R-77-XYZ',
      description: null,
      priority: 'high',
      vehicle_type: 'swap',
    });
    answer(json(201, created));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toast.success).toHaveBeenCalledWith(TOAST.taskCreated);
    expect(useTasks.getState().byId[created.id]).toEqual(created);
  });

  it("shows the trailer's 409 on its field, with no toast, and stays open", async () => {
    const detail = ERR.trailerBusy('R-77-XYZ');
    mockFetch(() => json(409, { detail }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} />);
    await fill();
    await submit();
    await within(dialog()).findByText(detail);
    expect(field(UI_BOARD.form.trailer)).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
    // Cancel closes it.
    await user().click(within(dialog()).getByRole('button', { name: UI_COMMON.cancel }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('edit', { timeout: 20_000 }, () => {
  it('sends only the changed fields (with the version it opened) and toasts the SPEC §8 text', async () => {
    useTasks.getState().apply(created);
    const fetch = mockFetch(() => json(200, { ...created, destination: 'Puerta 2', version: 2 }));
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} task={created} />);
    expect(field(UI_BOARD.form.trailer)).toHaveValue('R-77-XYZ');
    await user().clear(field(UI_BOARD.form.destination));
    await user().type(field(UI_BOARD.form.destination), 'Puerta 2');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.taskUpdated));
    expect(fetch.mock.calls[0][1]?.method).toBe('PUT');
    expect(sentBody(fetch)).toEqual({ destination: 'Puerta 2', version: 1 });
    expect(useTasks.getState().byId[created.id].destination).toBe('Puerta 2');
  });

  it('a refused edit toasts the server detail', async () => {
    mockFetch(() => json(409, { detail: ERR.trailerBusy('R-1') }));
    render(<TaskFormModal open onOpenChange={vi.fn()} task={created} />);
    await user().clear(field(UI_BOARD.form.trailer));
    await user().type(field(UI_BOARD.form.trailer), 'R-1');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.trailerBusy('R-1')));
  });
});

describe('edit: someone else changed the task meanwhile (CONTRACT §5 version)', { timeout: 20_000 }, () => {
  const conflict = () => json(409, { detail: ERR.versionConflict });
  const alertText = () => within(dialog()).findByRole('alert');

  it('sends the version it opened with; a 409 keeps it open, says why inside, shows the fresh task; saving again sends the new version', async () => {
    useTasks.getState().apply(created);
    const fetch = mockFetch((_path, init) => {
      if (init.method !== 'PUT') return json(500, {});
      const body = JSON.parse(String(init.body)) as { version: number };
      return body.version === 1
        ? conflict()
        : json(200, { ...created, destination: 'Muelle 9', origin: 'Puerta 4', version: 3 });
    });
    const onOpenChange = vi.fn();
    render(<TaskFormModal open onOpenChange={onOpenChange} task={created} />);
    await user().clear(field(UI_BOARD.form.origin));
    await user().type(field(UI_BOARD.form.origin), 'Puerta 3');
    // Another staff member saves first; the socket brings their change to the store.
    useTasks.getState().apply({ ...created, destination: 'Muelle 9', version: 2 });
    await submit(UI_BOARD.form.save);

    expect((await alertText()).textContent).toBe(ERR.versionConflict);
    expect(sentBody(fetch)).toEqual({ origin: 'Puerta 3', version: 1 });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    // The fields now show the task as it is: the other change, and the user's edit to redo.
    await waitFor(() => expect(field(UI_BOARD.form.destination)).toHaveValue('Muelle 9'));
    expect(field(UI_BOARD.form.origin)).toHaveValue('Muelle 7');
    expect(field(UI_BOARD.form.trailer)).not.toHaveAttribute('aria-invalid', 'true');
    expect(useTasks.getState().byId[created.id].origin).toBe('Muelle 7');

    await user().clear(field(UI_BOARD.form.origin));
    await user().type(field(UI_BOARD.form.origin), 'Puerta 4');
    await submit(UI_BOARD.form.save);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sentBody(fetch, 1)).toEqual({ origin: 'Puerta 4', version: 2 });
    expect(useTasks.getState().byId[created.id]).toMatchObject({
      destination: 'Muelle 9',
      origin: 'Puerta 4',
    });
  });

  it('without a newer copy in the store, it reloads the board for the fresh values', async () => {
    useTasks.getState().apply(created);
    const fresh = { ...created, priority: 'low' as const, description: 'Con cuidado', version: 4 };
    const fetch = mockFetch((path, init) =>
      init.method === 'PUT' ? conflict() : path === '/tasks' ? json(200, [fresh]) : json(404, {}),
    );
    render(<TaskFormModal open onOpenChange={vi.fn()} task={created} />);
    await user().type(field(UI_BOARD.form.description), 'Urgente');
    await submit(UI_BOARD.form.save);
    expect((await alertText()).textContent).toBe(ERR.versionConflict);
    await waitFor(() => expect(field(UI_BOARD.form.priority)).toHaveValue('low'));
    expect(field(UI_BOARD.form.description)).toHaveValue('Con cuidado');
    expect(fetch.mock.calls.map(([, init]) => init?.method ?? 'GET')).toEqual(['PUT', 'GET']);
  });
});
