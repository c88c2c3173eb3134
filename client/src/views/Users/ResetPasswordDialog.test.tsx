import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_COMMON, UI_USERS } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { LUIS } from '../../test/users';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const R = UI_USERS.resetDialog;
const T = UI_USERS.temporaryPassword;
const TEMP = 'Kx7-pQ2m-Vt9z';

const luis = LUIS;

const setSecure = (secure: boolean) =>
  Object.defineProperty(window, 'isSecureContext', { value: secure, configurable: true });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  setSecure(true);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function resetThroughConfirm() {
  await userEvent.click(
    within(screen.getByRole('dialog', { name: R.title })).getByRole('button', { name: R.confirm }),
  );
  return screen.findByRole('dialog', { name: T.title });
}

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('password reset (CONTRACT §14)', { timeout: 20_000 }, () => {
  it('asks first and sends nothing until confirmed; Cancelar closes', async () => {
    const fetch = mockFetch(() => json(200, { temporary_password: TEMP }));
    const onClose = vi.fn();
    render(<ResetPasswordDialog user={luis} onClose={onClose} />);
    const confirm = screen.getByRole('dialog', { name: R.title });
    expect(confirm).toHaveTextContent(R.message('Luis Gómez', 'luis@patio.es'));
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(within(confirm).getByRole('button', { name: UI_COMMON.cancel }));
    expect(onClose).toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the temporary password once, with what happens next, and copies it', async () => {
    const user = userEvent.setup();
    const fetch = mockFetch(() => json(200, { temporary_password: TEMP }));
    const onClose = vi.fn();
    render(<ResetPasswordDialog user={luis} onClose={onClose} />);
    const shown = await resetThroughConfirm();

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(new RegExp(`/api/admin/users/${luis.id}/reset-password$`));
    expect(fetch.mock.calls[0][1]?.method).toBe('POST');
    expect(screen.queryByRole('dialog', { name: R.title })).not.toBeInTheDocument();

    expect(within(shown).getByTestId('temporary-password')).toHaveTextContent(TEMP);
    expect(shown).toHaveTextContent(T.onlyOnce);
    expect(shown).toHaveTextContent(T.mustChange('Luis Gómez'));
    expect(shown).toHaveTextContent(T.sessionsClosed);
    // The confirm step closing itself did not close this one.
    expect(onClose).not.toHaveBeenCalled();

    await user.click(within(shown).getByRole('button', { name: T.copy }));
    await expect(navigator.clipboard.readText()).resolves.toBe(TEMP);
    expect(toast.success).toHaveBeenCalledWith(TOAST.copied);
    expect(within(shown).getByRole('button', { name: T.copied })).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: T.done }));
    expect(onClose).toHaveBeenCalled();
  });

  it('copies through a selected textarea on plain HTTP (no Clipboard API there)', async () => {
    setSecure(false);
    let copied: string | null = null;
    const execCommand = vi.fn(() => {
      copied = (document.activeElement as HTMLTextAreaElement | null)?.value ?? null;
      return true;
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    mockFetch(() => json(200, { temporary_password: TEMP }));
    render(<ResetPasswordDialog user={luis} onClose={vi.fn()} />);
    const shown = await resetThroughConfirm();
    await userEvent.click(within(shown).getByRole('button', { name: T.copy }));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(copied).toBe(TEMP);
    expect(toast.success).toHaveBeenCalledWith(TOAST.copied);
    expect(document.querySelector('textarea')).toBeNull();
  });

  it("keeps the confirmation open with the server's detail when the reset fails", async () => {
    mockFetch(() => json(404, { detail: ERR.userNotFound }));
    const onClose = vi.fn();
    render(<ResetPasswordDialog user={luis} onClose={onClose} />);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: R.title })).getByRole('button', { name: R.confirm }),
    );
    expect(toast.error).toHaveBeenCalledWith(ERR.userNotFound);
    expect(screen.getByRole('dialog', { name: R.title })).toBeInTheDocument();
    expect(screen.queryByTestId('temporary-password')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
