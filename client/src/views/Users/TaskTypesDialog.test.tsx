import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_USERS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { json, mockFetch, sentBody } from '../../test/http';
import { TaskTypesDialog } from './TaskTypesDialog';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const driver = (task_types: AdminUser['task_types']): AdminUser => ({
  id: '5b1c0b8e-4a57-4d57-9c1e-1f2a3b4c5d6e',
  name: 'Luis Gómez',
  email: 'luis@patio.es',
  role: 'conductor',
  is_approved: true,
  is_online: true,
  movements_count: 3,
  task_types,
  created_at: '2026-11-20T08:00:00.000Z',
});

const box = (name: 'Semi' | 'Semi Out' | 'Swap') => screen.getByRole('checkbox', { name });
const save = () => userEvent.click(screen.getByRole('button', { name: UI_USERS.taskTypesDialog.confirm }));

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('task-types dialog (SPEC §5)', { timeout: 15_000 }, () => {
  it("shows the driver's current types checked", () => {
    render(<TaskTypesDialog user={driver(['semiremolque', 'swap'])} onClose={vi.fn()} />);
    expect(box('Semi')).toBeChecked();
    expect(box('Semi Out')).not.toBeChecked();
    expect(box('Swap')).toBeChecked();
  });

  it('refuses to uncheck the last type', async () => {
    const fetch = mockFetch(() => json(200, { message: 'x' }));
    render(<TaskTypesDialog user={driver(['semiremolque', 'swap'])} onClose={vi.fn()} />);
    await userEvent.click(box('Swap'));
    expect(box('Swap')).not.toBeChecked();
    expect(toast.error).not.toHaveBeenCalled();

    await userEvent.click(box('Semi'));
    expect(box('Semi')).toBeChecked();
    expect(toast.error).toHaveBeenCalledWith('Debe haber al menos un tipo de tarea seleccionado');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses to save a driver with no type at all, and sends nothing', async () => {
    const fetch = mockFetch(() => json(200, { message: 'x' }));
    const onClose = vi.fn();
    render(<TaskTypesDialog user={driver([])} onClose={onClose} />);
    await save();
    expect(toast.error).toHaveBeenCalledWith('Debes seleccionar al menos un tipo de tarea');
    expect(ERR.taskTypesRequired).toBe('Debes seleccionar al menos un tipo de tarea');
    expect(fetch).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('saves the chosen types in a stable order and shows the server message', async () => {
    const fetch = mockFetch(() => json(200, { message: 'Tipos de tarea de Luis Gómez actualizados' }));
    const onClose = vi.fn();
    const user = driver(['swap']);
    render(<TaskTypesDialog user={user} onClose={onClose} />);
    await userEvent.click(box('Semi Out'));
    await userEvent.click(box('Semi'));
    await save();
    expect(fetch.mock.calls[0][0]).toMatch(/\/api\/admin\/update-user-task-types$/);
    expect(sentBody(fetch)).toEqual({
      user_id: user.id,
      task_types: ['semiremolque', 'semiremolque_out_km0', 'swap'],
    });
    expect(toast.success).toHaveBeenCalledWith('Tipos de tarea de Luis Gómez actualizados');
    expect(onClose).toHaveBeenCalled();
  });

  it("shows the server's detail, else the SPEC §8 fallback, and stays open", async () => {
    mockFetch(() => json(409, { detail: 'Solo los conductores tienen tipos de tarea' }));
    const onClose = vi.fn();
    render(<TaskTypesDialog user={driver(['semiremolque'])} onClose={onClose} />);
    await save();
    expect(toast.error).toHaveBeenCalledWith('Solo los conductores tienen tipos de tarea');

    mockFetch(() => new Response('oops', { status: 500 }));
    await save();
    expect(toast.error).toHaveBeenLastCalledWith(TOAST.taskTypesError);
    expect(TOAST.taskTypesError).toBe('Error al actualizar tipos de tareas');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: UI_USERS.taskTypesDialog.confirm })).toBeEnabled();
  });
});
