import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { UI_COMMON, UI_USERS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { useSession } from '../../stores/session';
import { useUsers } from '../../stores/users';
import { UsersView } from './UsersView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

// The socket stands still in jsdom: events are delivered by hand through `push`.
const socketHandlers = vi.hoisted(() => new Map<string, Set<(p: unknown) => void>>());
vi.mock('../../socket', async () => {
  const { useEffect, useRef } = await import('react');
  return {
    useResync: (load: () => void) => {
      const ref = useRef(load);
      useEffect(() => ref.current(), []);
    },
    usePollingFallback: () => {},
    useSocketEvent: (event: string, handler: (p: unknown) => void) => {
      const ref = useRef(handler);
      ref.current = handler;
      useEffect(() => {
        const fn = (p: unknown) => ref.current(p);
        if (!socketHandlers.has(event)) socketHandlers.set(event, new Set());
        socketHandlers.get(event)!.add(fn);
        return () => void socketHandlers.get(event)!.delete(fn);
      }, [event]);
    },
  };
});
const push = (event: string, payload: unknown) =>
  act(() => socketHandlers.get(event)?.forEach((h) => h(payload)));

const base = { movements_count: 0, task_types: [], created_at: '2026-11-20T08:00:00.000Z' };
const admin: AdminUser = {
  ...base,
  id: 'aaaaaaaa-0000-4000-8000-00000000ad01',
  name: 'Admin Patio',
  email: 'admin@patio.es',
  role: 'admin',
  is_approved: true,
  is_online: true,
};
const luis: AdminUser = {
  ...base,
  id: 'bbbbbbbb-0000-4000-8000-000000000002',
  name: 'Luis Gómez',
  email: 'luis@patio.es',
  role: 'conductor',
  is_approved: true,
  is_online: false,
  movements_count: 7,
  task_types: ['swap', 'semiremolque'],
};
const nuria: AdminUser = {
  ...base,
  id: 'cccccccc-0000-4000-8000-000000000003',
  name: 'Nuria Pendiente',
  email: 'nuria@patio.es',
  role: 'gestor',
  is_approved: false,
  is_online: false,
};

// By test id rather than role: computing every row's accessible name is slow in jsdom.
const row = (name: string): HTMLElement => {
  const found = screen.getAllByTestId('user-row').find((r) => r.textContent?.includes(name));
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

beforeEach(() => {
  useUsers.setState({ users: [], loaded: false, failed: false });
  useSession.setState({
    token: 't',
    user: { id: admin.id, name: admin.name, email: admin.email, role: 'admin' },
  });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('Usuarios view (SPEC §2)', { timeout: 15_000 }, () => {
  it('shows the summary cards and one row per user with status, types and actions', async () => {
    mockFetch(() => json(200, [admin, luis, nuria]));
    render(<UsersView />);
    await screen.findByText('Luis Gómez');

    expect(screen.getByText('Total usuarios').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('Pendientes').nextSibling).toHaveTextContent('1');
    expect(screen.getByText('Conductores').nextSibling).toHaveTextContent('1');

    const l = within(row('Luis Gómez'));
    expect(l.getByText(`#${luis.id.slice(-8)}`)).toBeInTheDocument();
    expect(l.getByText('Desconectado')).toBeInTheDocument();
    expect(l.getByText('Conductor')).toBeInTheDocument();
    expect(l.getByText('7')).toBeInTheDocument();
    expect(l.getByTestId('task-types')).toHaveTextContent(/^SemiSwap$/);
    expect(l.getByRole('button', { name: 'Tareas de Luis Gómez' })).toBeInTheDocument();

    const n = within(row('Nuria Pendiente'));
    expect(n.getByText('Pendiente')).toBeInTheDocument();
    expect(n.queryByRole('button', { name: /^Tareas/ })).not.toBeInTheDocument();
    expect(n.getByRole('button', { name: /^Rol/ })).toBeInTheDocument();

    const a = within(row('Admin Patio'));
    expect(a.getByText('En línea')).toBeInTheDocument();
    // The server refuses deleting yourself (400); the button says so before asking.
    expect(a.getByRole('button', { name: /^Eliminar/ })).toBeDisabled();
  });

  it('follows users:changed, users:removed and the movement counts of drivers:updated', async () => {
    mockFetch(() => json(200, [admin, luis, nuria]));
    render(<UsersView />);
    await screen.findByText('Luis Gómez');

    push('users:changed', { user: { ...luis, is_online: true, task_types: ['semiremolque_out_km0'] } });
    expect(within(row('Luis Gómez')).getByText('En línea')).toBeInTheDocument();
    expect(within(row('Luis Gómez')).getByTestId('task-types')).toHaveTextContent(/^Semi Out$/);

    const ana = {
      ...nuria,
      id: 'dddddddd-0000-4000-8000-000000000004',
      name: 'Ana Nueva',
      email: 'ana@patio.es',
    };
    push('users:changed', { user: ana });
    const names = screen.getAllByTestId('user-row').map((r) => r.getAttribute('data-user-id'));
    expect(names).toEqual([admin.id, ana.id, luis.id, nuria.id]);

    push('drivers:updated', { online_drivers: [], rankings: [{ ...luis, movements_count: 8 }] });
    expect(within(row('Luis Gómez')).getByText('8')).toBeInTheDocument();

    // A rejected registration (or a deletion by another admin) removes the row.
    push('users:removed', { id: nuria.id });
    expect(screen.queryByText('Nuria Pendiente')).not.toBeInTheDocument();
    expect(screen.getByText('Luis Gómez')).toBeInTheDocument();
  });

  it('asks for confirmation, warning it cannot be undone, before deleting', async () => {
    const fetch = mockFetch((_path, init) =>
      init.method === 'DELETE'
        ? json(200, { message: 'Usuario Luis Gómez eliminado' })
        : json(200, [admin, luis]),
    );
    render(<UsersView />);
    await screen.findByText('Luis Gómez');
    await userEvent.click(within(row('Luis Gómez')).getByRole('button', { name: 'Eliminar a Luis Gómez' }));

    const dialog = screen.getByRole('dialog', { name: 'Eliminar usuario' });
    expect(dialog).toHaveTextContent('Esta acción no se puede deshacer.');
    expect(dialog).toHaveTextContent('luis@patio.es');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(fetch.mock.calls.at(-1)![0]).toMatch(new RegExp(`/api/admin/delete-user/${luis.id}$`));
    expect(toast.success).toHaveBeenCalledWith('Usuario Luis Gómez eliminado');
    expect(screen.queryByText('Luis Gómez')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("toasts the server's refusal of a deletion, else 'Error al eliminar usuario'", async () => {
    mockFetch((_path, init) =>
      init.method === 'DELETE' ? new Response('', { status: 502 }) : json(200, [admin, luis]),
    );
    render(<UsersView />);
    await screen.findByText('Luis Gómez');
    await userEvent.click(within(row('Luis Gómez')).getByRole('button', { name: 'Eliminar a Luis Gómez' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    expect(toast.error).toHaveBeenCalledWith('Error al eliminar usuario');
    expect(screen.getByText('Luis Gómez')).toBeInTheDocument();
  });

  it("offers edit, sessions and password reset per user, each opening that user's dialog", async () => {
    const temporary = 'Tmp-4421-xQ';
    const fetch = mockFetch((path, init) => {
      if (path === `/admin/users/${luis.id}/sessions`) return json(200, []);
      if (path === `/admin/users/${luis.id}/reset-password` && init.method === 'POST')
        return json(200, { temporary_password: temporary });
      if (path === `/admin/users/${luis.id}` && init.method === 'PUT')
        return json(200, { ...luis, name: 'Aarón Gómez' });
      return json(200, [admin, luis, nuria]);
    });
    render(<UsersView />);
    await screen.findByText('Luis Gómez');
    const sent = () => fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    const M = UI_USERS.accountMenu;
    /** The row's Cuenta menu, open: its items. */
    const accountMenu = async (name: string) => {
      await userEvent.click(
        within(row(name)).getByRole('button', { name: UI_USERS.actionLabels.account(name) }),
      );
      return within(await screen.findByRole('menu'));
    };

    // One can't reset one's own password from here (it would end the session showing the result).
    const ownMenu = await accountMenu('Admin Patio');
    const own = ownMenu.getByRole('menuitem', { name: new RegExp(`^${M.resetPassword}`) });
    expect(own).toHaveAttribute('aria-disabled', 'true');
    expect(own).toHaveTextContent(UI_USERS.resetSelf);
    await userEvent.click(own);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());

    await userEvent.click((await accountMenu('Luis Gómez')).getByRole('menuitem', { name: M.sessions }));
    const sessions = await screen.findByRole('dialog', { name: UI_USERS.sessionsDialog.title });
    expect(await within(sessions).findByText(UI_USERS.sessionsDialog.empty)).toBeInTheDocument();
    expect(sent().at(-1)).toMatch(new RegExp(`^GET .*/api/admin/users/${luis.id}/sessions$`));
    await userEvent.click(within(sessions).getAllByRole('button', { name: UI_COMMON.close }).at(-1)!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click((await accountMenu('Luis Gómez')).getByRole('menuitem', { name: M.resetPassword }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: UI_USERS.resetDialog.title })).getByRole('button', {
        name: UI_USERS.resetDialog.confirm,
      }),
    );
    expect(await screen.findByTestId('temporary-password')).toHaveTextContent(temporary);
    expect(sent().at(-1)).toMatch(new RegExp(`^POST .*/api/admin/users/${luis.id}/reset-password$`));
    await userEvent.click(screen.getByRole('button', { name: UI_USERS.temporaryPassword.done }));

    await userEvent.click((await accountMenu('Luis Gómez')).getByRole('menuitem', { name: M.edit }));
    const edit = await screen.findByRole('dialog', { name: UI_USERS.editDialog.title });
    const name = within(edit).getByLabelText(UI_USERS.editDialog.name);
    await userEvent.clear(name);
    await userEvent.type(name, 'Aarón Gómez');
    await userEvent.click(within(edit).getByRole('button', { name: UI_USERS.editDialog.confirm }));
    expect(sent().at(-1)).toMatch(new RegExp(`^PUT .*/api/admin/users/${luis.id}$`));
    // The renamed row moves to its place in name order.
    await screen.findByText('Aarón Gómez');
    const ids = screen.getAllByTestId('user-row').map((r) => r.getAttribute('data-user-id'));
    expect(ids).toEqual([luis.id, admin.id, nuria.id]);
    expect(toast.success).toHaveBeenCalledWith(UI_USERS.editDialog.saved('Aarón Gómez'));
  });

  it("says 'Error al cargar usuarios' when the list cannot be loaded", async () => {
    mockFetch(() => json(500, { detail: 'Error interno del servidor' }));
    render(<UsersView />);
    expect(await screen.findByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
    expect(screen.getByText('Error al cargar usuarios')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Error interno del servidor', expect.anything());
  });
});
