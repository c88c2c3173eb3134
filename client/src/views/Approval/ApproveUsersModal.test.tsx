import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, UI_APPROVAL, UI_COMMON } from '@shared/labels';
import type { PendingUser } from '@shared/schemas';
import { json, mockFetch, sentBody } from '../../test/http';
import { usePendingUsers } from '../../stores/pendingUsers';
import { useUi } from '../../stores/ui';
import { ApproveUsersModal } from './ApproveUsersModal';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const R = UI_APPROVAL.rejectConfirm;

const irene: PendingUser = {
  id: 'eeeeeeee-0000-4000-8000-000000000005',
  name: 'Irene Campos',
  email: 'irene@patio.es',
  role: 'manager',
  created_at: '2026-11-22T08:15:00.000Z',
  request_text: 'Solicita acceso como Manager',
};
const tomas: PendingUser = {
  ...irene,
  id: 'ffffffff-0000-4000-8000-000000000006',
  name: 'Tomás Vidal',
  email: 'tomas@patio.es',
  role: 'conductor',
  request_text: 'Solicita acceso como Conductor',
};

const row = (name: string) =>
  screen.getAllByTestId('pending-user').find((r) => r.textContent?.includes(name))!;

beforeEach(() => {
  usePendingUsers.setState({ users: [irene, tomas], loaded: true });
  useUi.setState({ approvalOpen: true });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('approval modal (SPEC §2)', { timeout: 20_000 }, () => {
  it('Rechazar asks first, saying the registration is deleted; Cancelar sends nothing', async () => {
    const fetch = mockFetch(() => json(200, { message: 'Solicitud de Irene Campos rechazada' }));
    render(<ApproveUsersModal />);
    await userEvent.click(within(row('Irene Campos')).getByRole('button', { name: UI_APPROVAL.reject }));

    const confirm = screen.getByRole('dialog', { name: R.title });
    expect(confirm).toHaveTextContent(R.message('Irene Campos', 'irene@patio.es'));
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(within(confirm).getByRole('button', { name: UI_COMMON.cancel }));
    expect(screen.queryByRole('dialog', { name: R.title })).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('pending-user')).toHaveLength(2);
  });

  it('confirming rejects that user (approved: false) and removes the row', async () => {
    const fetch = mockFetch(() => json(200, { message: 'Solicitud de Irene Campos rechazada' }));
    render(<ApproveUsersModal />);
    await userEvent.click(within(row('Irene Campos')).getByRole('button', { name: UI_APPROVAL.reject }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: R.title })).getByRole('button', { name: R.confirm }),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(/\/api\/admin\/approve-user$/);
    expect(sentBody(fetch)).toEqual({ user_id: irene.id, approved: false });
    expect(toast.success).toHaveBeenCalledWith('Solicitud de Irene Campos rechazada');
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: R.title })).not.toBeInTheDocument());
    expect(screen.getAllByTestId('pending-user')).toHaveLength(1);
    expect(screen.queryByText('Irene Campos')).not.toBeInTheDocument();
    // The approval list itself is still open.
    expect(screen.getByRole('dialog', { name: UI_APPROVAL.title })).toBeInTheDocument();
  });

  it("a refused rejection keeps the confirmation open with the server's detail", async () => {
    mockFetch(() => json(409, { detail: ERR.userNotPending }));
    render(<ApproveUsersModal />);
    await userEvent.click(within(row('Tomás Vidal')).getByRole('button', { name: UI_APPROVAL.reject }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: R.title })).getByRole('button', { name: R.confirm }),
    );
    expect(toast.error).toHaveBeenCalledWith(ERR.userNotPending);
    expect(screen.getByRole('dialog', { name: R.title })).toBeInTheDocument();
  });

  it('Aprobar still approves at once, without a confirmation', async () => {
    const fetch = mockFetch(() => json(200, { message: 'Usuario Tomás Vidal aprobado' }));
    render(<ApproveUsersModal />);
    await userEvent.click(within(row('Tomás Vidal')).getByRole('button', { name: UI_APPROVAL.approve }));
    expect(screen.queryByRole('dialog', { name: R.title })).not.toBeInTheDocument();
    expect(sentBody(fetch)).toEqual({ user_id: tomas.id, approved: true });
    expect(toast.success).toHaveBeenCalledWith('Usuario Tomás Vidal aprobado');
  });
});
