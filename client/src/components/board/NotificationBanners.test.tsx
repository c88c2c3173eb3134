// SPEC §2/§4 banners: at most 3 unread; dismiss marks read and removes; congratulations read by itself
// after CONGRATS_AUTO_READ_MS.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { Notification } from '@shared/schemas';
import { CONGRATS_AUTO_READ_MS } from '@shared/constants';
import { UI_BOARD } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { useNotifications } from '../../stores/notifications';
import { NotificationBanners } from '../NotificationBanners';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let n = 0;
const note = (fields: Partial<Notification> = {}): Notification => ({
  id: `n${++n}`,
  type: 'task_assigned',
  title: `Aviso ${n}`,
  message: 'Mover remolque R-1: Muelle 1 → Campa',
  is_read: false,
  play_sound: false,
  task_id: null,
  created_at: new Date(Date.UTC(2026, 0, 1, 8, 60 - n)).toISOString(),
  ...fields,
});

const markReadCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls
    .map(([u]) => new URL(String(u), 'http://x').pathname)
    .filter((p) => p.endsWith('/mark-read'));

beforeEach(() => {
  useNotifications.setState({ items: [], loaded: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('notification banners', () => {
  it('shows at most 3 unread; dismiss marks read and removes it from the list', async () => {
    const items = [note(), note(), note({ is_read: true }), note(), note()];
    useNotifications.setState({ items });
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<NotificationBanners />);
    expect(screen.getAllByTestId('notification-banner').map((b) => b.textContent)).toEqual([
      expect.stringContaining(items[0].title),
      expect.stringContaining(items[1].title),
      expect.stringContaining(items[3].title),
    ]);
    await act(async () => screen.getAllByRole('button', { name: UI_BOARD.banners.dismiss })[0].click());
    expect(markReadCalls(fetch)).toEqual([`/api/notifications/${items[0].id}/mark-read`]);
    expect(useNotifications.getState().items.map((i) => i.id)).not.toContain(items[0].id);
    expect(screen.getAllByTestId('notification-banner')[2]).toHaveTextContent(items[4].title);
  });

  it('puts a dismissed banner back when the server refuses', async () => {
    const item = note();
    useNotifications.setState({ items: [item] });
    mockFetch(() => json(404, { detail: 'Notificación no encontrada' }));
    render(<NotificationBanners />);
    await act(async () => screen.getByRole('button', { name: UI_BOARD.banners.dismiss }).click());
    expect(screen.getByTestId('notification-banner')).toHaveTextContent(item.title);
  });

  it('marks a congratulations read after 30 s, and nothing else', async () => {
    vi.useFakeTimers();
    const congrats = note({ type: 'congratulations', title: '¡Buen trabajo!' });
    const assigned = note();
    useNotifications.setState({ items: [congrats, assigned] });
    const fetch = mockFetch(() => json(200, { message: 'ok' }));
    render(<NotificationBanners />);
    await act(async () => vi.advanceTimersByTime(CONGRATS_AUTO_READ_MS - 1000));
    expect(markReadCalls(fetch)).toEqual([]);
    await act(async () => vi.advanceTimersByTime(1000));
    expect(markReadCalls(fetch)).toEqual([`/api/notifications/${congrats.id}/mark-read`]);
    expect(screen.getAllByTestId('notification-banner')).toHaveLength(1);
    expect(screen.getByTestId('notification-banner')).toHaveTextContent(assigned.title);
  });
});
