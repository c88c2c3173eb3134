import { describe, expect, it, vi } from 'vitest';
import { ALERT_VIBRATION_MS, PUSH_OPEN_PATH } from '@shared/constants';
import { PUSH_NOTICE } from '@shared/labels';
import { notificationFor, openApp } from './notification';

const TASK_ID = '00000000-0000-4000-8000-000000000042';

describe('the service worker notification of a Web Push (CONTRACT §16)', () => {
  it('task_assigned: its title and body, one tag per task, vibrates, stays until touched, opens the app', () => {
    const { title, options } = notificationFor(
      JSON.stringify({
        type: 'task_assigned',
        task_id: TASK_ID,
        title: 'Nueva tarea asignada',
        body: 'Mover R-1234 de Muelle 3 a Campa Norte',
      }),
    );
    expect(title).toBe('Nueva tarea asignada');
    expect(options.body).toBe('Mover R-1234 de Muelle 3 a Campa Norte');
    expect(options.tag).toBe(`task-${TASK_ID}`);
    expect(options.vibrate).toEqual([...ALERT_VIBRATION_MS]);
    expect(options.vibrate.length).toBeGreaterThan(0);
    expect(options.renotify).toBe(true);
    expect(options.requireInteraction).toBe(true);
    expect(options.data).toEqual({ url: PUSH_OPEN_PATH, task_id: TASK_ID, type: 'task_assigned' });
  });

  it.each([
    ['not JSON', '{"type":"task_assigned",'],
    ['JSON but not an object', '42'],
    ['no title', JSON.stringify({ type: 'task_assigned', task_id: null, body: 'x' })],
    ['no body at all', null],
  ])('a broken body (%s) still shows a notice with the fallback title', (_what, text) => {
    const { title, options } = notificationFor(text);
    expect(title).toBe(PUSH_NOTICE.fallbackTitle);
    expect(typeof options.body).toBe('string');
    expect(options.tag).toBe('torre');
    expect(options.vibrate).toEqual([...ALERT_VIBRATION_MS]);
    expect(options.data).toMatchObject({ url: PUSH_OPEN_PATH, task_id: null });
  });

  it('task_closed_by_staff: shown and vibrating, but it does not wait for a touch', () => {
    const { title, options } = notificationFor(
      JSON.stringify({
        type: 'task_closed_by_staff',
        task_id: TASK_ID,
        title: 'Tarea cerrada por oficina',
        body: 'La tarea R-1234 se ha cerrado',
      }),
    );
    expect(title).toBe('Tarea cerrada por oficina');
    expect(options.body).toBe('La tarea R-1234 se ha cerrado');
    expect(options.tag).toBe(`task-${TASK_ID}`);
    expect(options.requireInteraction).toBe(false);
    expect(options.vibrate).toEqual([...ALERT_VIBRATION_MS]);
    expect(options.data).toEqual({ url: PUSH_OPEN_PATH, task_id: TASK_ID, type: 'task_closed_by_staff' });
  });
});

describe('openApp (a tap on the notification)', () => {
  const origin = 'https://torre.patio.local';
  function clientsWith(windows: { url: string }[]) {
    const opened: string[] = [];
    const focused: string[] = [];
    const navigated: string[] = [];
    const list = windows.map((w) => ({
      url: w.url,
      focus: vi.fn(async () => void focused.push(w.url)),
      navigate: vi.fn(async (to: string) => void navigated.push(to)),
    }));
    return {
      clients: {
        matchAll: vi.fn(async () => list),
        openWindow: vi.fn(async (url: string) => void opened.push(url)),
      },
      opened,
      focused,
      navigated,
    };
  }

  it('opens the driver screen when the app has no window', async () => {
    const c = clientsWith([]);
    await openApp(c.clients, { url: PUSH_OPEN_PATH }, origin);
    expect(c.opened).toEqual([`${origin}${PUSH_OPEN_PATH}`]);
  });

  it('brings the open window to the front, on the driver screen', async () => {
    const c = clientsWith([{ url: 'https://other.example/x' }, { url: `${origin}/login` }]);
    await openApp(c.clients, { url: PUSH_OPEN_PATH }, origin);
    expect(c.opened).toEqual([]);
    expect(c.focused).toEqual([`${origin}/login`]);
    expect(c.navigated).toEqual([`${origin}${PUSH_OPEN_PATH}`]);
  });

  it('only focuses a window already on the driver screen; a notification without data still opens it', async () => {
    const c = clientsWith([{ url: `${origin}${PUSH_OPEN_PATH}` }]);
    await openApp(c.clients, null, origin);
    expect(c.focused).toEqual([`${origin}${PUSH_OPEN_PATH}`]);
    expect(c.navigated).toEqual([]);
  });
});
