import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_USERS } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { useSession } from '../../stores/session';
import { useUsers } from '../../stores/users';
import { EditAccountDialog } from './EditAccountDialog';
import { adminUser } from '../../test/users';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = UI_USERS.editDialog;

const luis = adminUser({ is_online: false });
const admin = adminUser({
  id: 'aaaaaaaa-0000-4000-8000-00000000ad01',
  name: 'Admin Patio',
  email: 'admin@patio.es',
  role: 'admin',
  is_online: false,
});

const nameField = () => screen.getByLabelText(T.name);
const emailField = () => screen.getByLabelText(T.email);
const save = () => screen.getByRole('button', { name: T.confirm });

beforeEach(() => {
  localStorage.clear();
  useUsers.setState({ users: [admin, luis], loaded: true, failed: false });
  useSession.setState({
    token: 't',
    user: { id: admin.id, name: admin.name, email: admin.email, role: 'admin' },
    status: 'authenticated',
  });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Typing through user-event in Radix dialogs is slow on a loaded 2-core machine.
describe('edit user dialog (CONTRACT §14 PUT /admin/users/{id})', { timeout: 20_000 }, () => {
  it('starts with the current name and email and keeps Guardar disabled until one changes', async () => {
    const fetch = mockFetch(() => json(200, luis));
    render(<EditAccountDialog user={luis} onClose={vi.fn()} />);
    expect(screen.getByRole('dialog', { name: T.title })).toHaveTextContent(T.description('Luis Gómez'));
    expect(nameField()).toHaveValue('Luis Gómez');
    expect(emailField()).toHaveValue('luis@patio.es');
    expect(save()).toBeDisabled();
    await userEvent.type(nameField(), 'x');
    expect(save()).toBeEnabled();
    await userEvent.type(nameField(), '{Backspace}');
    expect(save()).toBeDisabled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends only what changed, normalised, and the table row follows the answer', async () => {
    const updated = { ...luis, email: 'luis.gomez@patio.es' };
    const fetch = mockFetch(() => json(200, updated));
    const onClose = vi.fn();
    render(<EditAccountDialog user={luis} onClose={onClose} />);
    await userEvent.clear(emailField());
    await userEvent.type(emailField(), '  Luis.Gomez@Patio.es ');
    // (Enter submits too in a browser — the footer button belongs to the form through `form=` — but
    // user-event only looks for submit buttons inside the form element.)
    await userEvent.click(save());

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(new RegExp(`/api/admin/users/${luis.id}$`));
    expect(fetch.mock.calls[0][1]?.method).toBe('PUT');
    expect(sentBody(fetch)).toEqual({ email: 'luis.gomez@patio.es' });
    expect(toast.success).toHaveBeenCalledWith(T.saved('Luis Gómez'));
    expect(onClose).toHaveBeenCalled();
    expect(useUsers.getState().users.find((u) => u.id === luis.id)?.email).toBe('luis.gomez@patio.es');
  });

  it('shows a taken email (409) on the email field and stays open', async () => {
    mockFetch(() => json(409, { detail: ERR.emailTaken }));
    const onClose = vi.fn();
    render(<EditAccountDialog user={luis} onClose={onClose} />);
    await userEvent.clear(emailField());
    await userEvent.type(emailField(), 'admin@patio.es');
    await userEvent.click(save());

    expect(await screen.findByText(ERR.emailTaken)).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(useUsers.getState().users.find((u) => u.id === luis.id)?.email).toBe('luis@patio.es');
  });

  it('refuses an empty name or a malformed email without sending', async () => {
    const fetch = mockFetch(() => json(200, luis));
    render(<EditAccountDialog user={luis} onClose={vi.fn()} />);
    await userEvent.clear(nameField());
    await userEvent.type(nameField(), '   ');
    await userEvent.clear(emailField());
    await userEvent.type(emailField(), 'no-es-un-email');
    await userEvent.click(save());
    expect(screen.getByText('El nombre es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('El email no tiene un formato válido')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("toasts other refusals with the server's detail, else the fallback", async () => {
    const fetch = mockFetch(() => json(404, { detail: ERR.userNotFound }));
    render(<EditAccountDialog user={luis} onClose={vi.fn()} />);
    await userEvent.type(nameField(), ' Ruiz');
    await userEvent.click(save());
    expect(toast.error).toHaveBeenLastCalledWith(ERR.userNotFound);
    fetch.mockImplementation(() => Promise.resolve(new Response('', { status: 502 })));
    await userEvent.click(save());
    expect(toast.error).toHaveBeenLastCalledWith(TOAST.editUserError);
  });

  it("renaming yourself renames the header's user too", async () => {
    mockFetch(() => json(200, { ...admin, name: 'Admin Central' }));
    render(<EditAccountDialog user={admin} onClose={vi.fn()} />);
    await userEvent.clear(nameField());
    await userEvent.type(nameField(), 'Admin Central');
    await userEvent.click(save());
    await vi.waitFor(() => expect(useSession.getState().user?.name).toBe('Admin Central'));
    expect(JSON.parse(localStorage.getItem('torre.user') ?? '{}')).toMatchObject({ name: 'Admin Central' });
  });
});
