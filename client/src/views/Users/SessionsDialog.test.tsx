import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, UI_COMMON, UI_USERS } from '@shared/labels';
import type { SessionInfo } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { SessionsDialog } from './SessionsDialog';
import { LUIS } from '../../test/users';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = UI_USERS.sessionsDialog;

const luis = LUIS;

const phone: SessionInfo = {
  id: '11111111-0000-4000-8000-0000000000a1',
  // Winter: Madrid is UTC+1.
  created_at: '2026-11-22T06:05:00.000Z',
  last_refreshed_at: '2026-11-22T08:15:00.000Z',
  ip: '10.20.0.31',
  user_agent:
    'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  current: false,
};
const wall: SessionInfo = {
  id: '22222222-0000-4000-8000-0000000000a2',
  // Summer: Madrid is UTC+2.
  created_at: '2026-07-01T10:00:00.000Z',
  last_refreshed_at: '2026-07-01T21:30:00.000Z',
  ip: null,
  user_agent: null,
  current: true,
};

const sessionsPath = `/admin/users/${luis.id}/sessions`;
const row = (id: string) =>
  screen.getAllByTestId('session-row').find((r) => r.getAttribute('data-session-id') === id)!;

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Radix dialogs and role queries are slow in jsdom on a loaded machine; the default 5 s is tight.
describe('sessions dialog (CONTRACT §14)', { timeout: 20_000 }, () => {
  it("lists each open session: device, IP, start and last activity in Madrid time, 'Esta sesión'", async () => {
    const fetch = mockFetch(() => json(200, [phone, wall]));
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: T.title });
    expect(dialog).toHaveTextContent(T.description('Luis Gómez'));
    await screen.findByText('Chrome · Android');

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(new RegExp(`/api${sessionsPath}$`));
    expect(fetch.mock.calls[0][1]?.method).toBe('GET');
    expect(screen.getByTestId('sessions-count')).toHaveTextContent('2 sesiones abiertas');

    const p = within(row(phone.id));
    expect(p.getByText('10.20.0.31')).toBeInTheDocument();
    expect(p.getByText('22/11/2026, 07:05')).toBeInTheDocument();
    expect(p.getByText('22/11/2026, 09:15')).toBeInTheDocument();
    expect(p.queryByText(T.current)).not.toBeInTheDocument();
    // The full user agent stays available on hover.
    expect(p.getByText('Chrome · Android')).toHaveAttribute('title', phone.user_agent);

    const w = within(row(wall.id));
    expect(w.getByText(T.current)).toBeInTheDocument();
    expect(w.getByText(T.unknownDevice)).toBeInTheDocument();
    expect(w.getByText(T.unknownIp)).toBeInTheDocument();
    expect(w.getByText('01/07/2026, 12:00')).toBeInTheDocument();
    expect(w.getByText('01/07/2026, 23:30')).toBeInTheDocument();
  });

  it('ends a session only after confirmation, then drops its row', async () => {
    const fetch = mockFetch((_path, init) =>
      init.method === 'DELETE'
        ? json(200, { message: 'Sesión cerrada en ese dispositivo' })
        : json(200, [phone, wall]),
    );
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    await screen.findByText('Chrome · Android');

    await userEvent.click(
      within(row(phone.id)).getByRole('button', { name: T.endLabel('Chrome · Android') }),
    );
    const confirm = screen.getByRole('dialog', { name: T.confirmTitle });
    expect(confirm).toHaveTextContent(T.confirmMessage('Luis Gómez', 'Chrome · Android'));
    expect(confirm).not.toHaveTextContent(T.confirmCurrent);
    await userEvent.click(within(confirm).getByRole('button', { name: UI_COMMON.cancel }));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(screen.getAllByTestId('session-row')).toHaveLength(2);

    await userEvent.click(
      within(row(phone.id)).getByRole('button', { name: T.endLabel('Chrome · Android') }),
    );
    await userEvent.click(
      within(screen.getByRole('dialog', { name: T.confirmTitle })).getByRole('button', { name: T.confirm }),
    );
    const del = fetch.mock.calls.find(([, init]) => init?.method === 'DELETE')!;
    expect(del[0]).toMatch(new RegExp(`/api${sessionsPath}/${phone.id}$`));
    expect(toast.success).toHaveBeenCalledWith('Sesión cerrada en ese dispositivo');
    await vi.waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(screen.getByTestId('sessions-count')).toHaveTextContent('1 sesión abierta');
    expect(screen.queryByRole('dialog', { name: T.confirmTitle })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: T.title })).toBeInTheDocument();
  });

  it("warns that ending the admin's own session logs them out too", async () => {
    mockFetch(() => json(200, [phone, wall]));
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    await screen.findByText(T.current);
    await userEvent.click(within(row(wall.id)).getByRole('button', { name: T.endLabel(T.unknownDevice) }));
    expect(screen.getByRole('dialog', { name: T.confirmTitle })).toHaveTextContent(T.confirmCurrent);
  });

  it("keeps the row and shows the server's refusal", async () => {
    mockFetch((_path, init) =>
      init.method === 'DELETE' ? json(404, { detail: ERR.sessionNotFound }) : json(200, [phone]),
    );
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    await screen.findByText('Chrome · Android');
    await userEvent.click(screen.getByRole('button', { name: T.endLabel('Chrome · Android') }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: T.confirmTitle })).getByRole('button', { name: T.confirm }),
    );
    expect(toast.error).toHaveBeenCalledWith(ERR.sessionNotFound);
    expect(screen.getAllByTestId('session-row')).toHaveLength(1);
  });

  it('says when there are no open sessions, and offers a retry when the list cannot be loaded', async () => {
    const fetch = mockFetch(() => json(200, []));
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
    cleanup();

    fetch.mockImplementation(() => Promise.resolve(json(500, { detail: ERR.internal })));
    render(<SessionsDialog user={luis} onClose={vi.fn()} />);
    expect(await screen.findByText(T.loadError)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(ERR.internal);
    fetch.mockImplementation(() => Promise.resolve(json(200, [phone])));
    await userEvent.click(screen.getByRole('button', { name: UI_COMMON.retry }));
    expect(await screen.findByText('Chrome · Android')).toBeInTheDocument();
  });
});
