import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { TOAST, UI_USERS } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { RoleDialog } from './RoleDialog';
import { adminUser } from '../../test/users';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const gestor = adminUser({
  id: '0f6a7c1d-2b3e-4f50-8a9b-0c1d2e3f4a5b',
  name: 'Marta Ruiz',
  email: 'marta@patio.es',
  role: 'gestor',
  is_online: false,
  movements_count: 0,
  task_types: [],
});

const confirmButton = () => screen.getByRole('button', { name: UI_USERS.roleDialog.confirm });
const radio = (name: RegExp) => screen.getByRole('radio', { name });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('change-role dialog (SPEC §5)', { timeout: 15_000 }, () => {
  it('offers the four roles with Spanish labels, the current one chosen', () => {
    render(<RoleDialog user={gestor} onClose={vi.fn()} />);
    expect(screen.getAllByRole('radio')).toHaveLength(4);
    for (const name of [/^Conductor/, /^Gestor/, /^Manager/, /^Administrador/])
      expect(radio(name)).toBeInTheDocument();
    expect(radio(/^Gestor/)).toBeChecked();
    expect(radio(/^Gestor/)).toHaveAccessibleName(/actual/);
    expect(radio(/^Manager/)).not.toBeChecked();
  });

  it('keeps confirm disabled while the chosen role is the current one', async () => {
    render(<RoleDialog user={gestor} onClose={vi.fn()} />);
    expect(confirmButton()).toBeDisabled();
    await userEvent.click(radio(/^Manager/));
    expect(confirmButton()).toBeEnabled();
    await userEvent.click(radio(/^Gestor/));
    expect(confirmButton()).toBeDisabled();
  });

  it('sends the new role and shows the server message', async () => {
    const fetch = mockFetch(() => json(200, { message: 'Rol de Marta Ruiz cambiado a Manager' }));
    const onClose = vi.fn();
    render(<RoleDialog user={gestor} onClose={onClose} />);
    await userEvent.click(radio(/^Manager/));
    await userEvent.click(confirmButton());
    expect(fetch.mock.calls[0][0]).toMatch(/\/api\/admin\/update-user-role$/);
    expect(sentBody(fetch)).toEqual({ user_id: gestor.id, new_role: 'manager' });
    expect(toast.success).toHaveBeenCalledWith('Rol de Marta Ruiz cambiado a Manager');
    expect(onClose).toHaveBeenCalled();
  });

  it("shows the server's detail, else 'Error al cambiar rol'", async () => {
    mockFetch(() => json(400, { detail: 'Debe quedar al menos un administrador' }));
    const onClose = vi.fn();
    render(<RoleDialog user={{ ...gestor, role: 'admin' }} onClose={onClose} />);
    await userEvent.click(radio(/^Conductor/));
    await userEvent.click(confirmButton());
    expect(toast.error).toHaveBeenCalledWith('Debe quedar al menos un administrador');

    mockFetch(() => Promise.reject(new TypeError('network')));
    await userEvent.click(confirmButton());
    expect(toast.error).toHaveBeenLastCalledWith(TOAST.changeRoleError);
    expect(TOAST.changeRoleError).toBe('Error al cambiar rol');
    expect(onClose).not.toHaveBeenCalled();
  });
});
