import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, NOT_AVAILABLE, TOAST, UI_DRIVER } from '@shared/labels';
import { formatTime, formatTimeWithSeconds } from '@shared/time';
import { json, mockFetch } from '../../test/http';
import { punchAllowed, useTimeclock, workedMinutes } from '../../stores/timeclock';
import { useSession } from '../../stores/session';
import { DRIVER } from './test-fixtures';
import { clockStatus } from './test-fixtures';
import { TimeclockWidget } from './TimeclockWidget';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = UI_DRIVER.timeclock;
const button = (name: string) => screen.getByRole('button', { name });

beforeEach(() => {
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useTimeclock.setState({ status: null, punching: null, offsetMs: 0 });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('worked time and flags (pure rules)', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it('counts now − last entrada only while clocked in', () => {
    const entrada = new Date(now - 135 * 60_000).toISOString();
    expect(workedMinutes(clockStatus({ status: 'clocked_in', last_entrada: entrada }), now)).toBe(135);
    expect(workedMinutes(clockStatus({ status: 'clocked_out', last_entrada: entrada }), now)).toBeNull();
    expect(workedMinutes(clockStatus({ status: 'clocked_in', last_entrada: null }), now)).toBeNull();
    expect(workedMinutes(null, now)).toBeNull();
  });

  it('never reports negative time when the device clock lags the entrada', () => {
    const entrada = new Date(now + 30_000).toISOString();
    expect(workedMinutes(clockStatus({ status: 'clocked_in', last_entrada: entrada }), now)).toBe(0);
  });

  it('allows a punch only when the server flag says so and none is in flight', () => {
    const open = clockStatus({ can_clock_in: true, can_clock_out: false });
    expect(punchAllowed(open, null)).toEqual({ entrada: true, salida: false });
    expect(punchAllowed(open, 'entrada')).toEqual({ entrada: false, salida: false });
    expect(punchAllowed(clockStatus({ can_clock_in: false, can_clock_out: true }), null)).toEqual({
      entrada: false,
      salida: true,
    });
    expect(punchAllowed(null, null)).toEqual({ entrada: false, salida: false });
  });
});

describe('Control de Horario widget', () => {
  it('before the first punch: Sin fichar, N/A, Entrada enabled, Salida disabled, no worked time', () => {
    useTimeclock.setState({ status: clockStatus() });
    render(<TimeclockWidget />);
    expect(screen.getByRole('heading', { name: T.title })).toBeInTheDocument();
    expect(screen.getByTestId('timeclock-status')).toHaveTextContent('Sin fichar');
    expect(screen.getByTestId('last-entrada')).toHaveTextContent(NOT_AVAILABLE);
    expect(screen.getByTestId('last-salida')).toHaveTextContent(NOT_AVAILABLE);
    expect(screen.queryByText(T.workedToday)).not.toBeInTheDocument();
    expect(button(T.entrada)).toBeEnabled();
    expect(button(T.salida)).toBeDisabled();
    expect(screen.getByText('Fichajes registrados hoy: 0')).toBeInTheDocument();
  });

  it('clocked in: Trabajando, the entrada time, Xh Ymin worked, only Salida enabled', () => {
    const entrada = new Date(Date.now() - (2 * 60 + 15) * 60_000 - 5_000).toISOString();
    useTimeclock.setState({
      status: clockStatus({
        status: 'clocked_in',
        can_clock_in: false,
        can_clock_out: true,
        last_entrada: entrada,
        punches_today: 1,
      }),
    });
    render(<TimeclockWidget />);
    expect(screen.getByTestId('timeclock-status')).toHaveTextContent('Trabajando');
    expect(screen.getByTestId('last-entrada')).toHaveTextContent(formatTime(entrada));
    expect(screen.getByTestId('worked-today')).toHaveTextContent('2 h 15 min');
    expect(button(T.entrada)).toBeDisabled();
    expect(button(T.salida)).toBeEnabled();
    expect(screen.getByText('Fichajes registrados hoy: 1')).toBeInTheDocument();
  });

  it('ticks every second and shows the server time, not the device time', () => {
    const device = Date.parse('2026-11-22T08:00:00.000Z');
    vi.useFakeTimers({ now: device, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    // The server is 1 h 30 s ahead of this phone.
    const offset = 3_600_000 + 30_000;
    useTimeclock.setState({ status: clockStatus(), offsetMs: offset });
    render(<TimeclockWidget />);
    const clock = screen.getByTestId('timeclock-clock');
    expect(clock).toHaveTextContent(formatTimeWithSeconds(device + offset)); // 10:00:30 in Madrid
    expect(clock).toHaveTextContent('10:00:30');
    act(() => vi.advanceTimersByTime(1000));
    expect(clock).toHaveTextContent('10:00:31');
    act(() => vi.advanceTimersByTime(2000));
    expect(clock).toHaveTextContent('10:00:33');
  });

  it('measures the server offset from GET /server-time', async () => {
    const device = Date.parse('2026-11-22T08:00:00.000Z');
    vi.useFakeTimers({ now: device, toFake: ['Date'] });
    mockFetch(() => json(200, { madrid_time: 'x', epoch_ms: device + 90_000 }));
    await useTimeclock.getState().syncServerTime();
    expect(useTimeclock.getState().offsetMs).toBe(90_000);
  });

  it('punches Entrada: buttons disabled in flight, server message toast with the Madrid time, status reloaded', async () => {
    useTimeclock.setState({ status: clockStatus() });
    let answerPunch!: (r: Response) => void;
    const stamp = '2026-11-22T07:05:09.000Z';
    const fetch = mockFetch((path, init) => {
      if (path === '/timeclock/punch' && init.method === 'POST')
        return new Promise<Response>((r) => (answerPunch = r));
      return json(
        200,
        clockStatus({
          status: 'clocked_in',
          can_clock_in: false,
          can_clock_out: true,
          last_entrada: stamp,
          punches_today: 1,
        }),
      );
    });
    render(<TimeclockWidget />);
    await userEvent.click(button(T.entrada));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(String(fetch.mock.calls[0][0])).toContain('/api/timeclock/punch?clock_type=entrada');
    expect(button(T.entrada)).toBeDisabled();
    expect(button(T.salida)).toBeDisabled();

    answerPunch(json(200, { message: 'Entrada registrada', timestamp: stamp }));
    await waitFor(() => expect(screen.getByTestId('timeclock-status')).toHaveTextContent('Trabajando'));
    expect(toast.success).toHaveBeenCalledWith('Entrada registrada', {
      description: 'Registrado a las 08:05:09',
      duration: 4000,
    });
    expect(fetch.mock.calls.map((c) => new URL(String(c[0]), 'http://x').pathname)).toEqual([
      '/api/timeclock/punch',
      '/api/timeclock/status',
    ]);
    expect(button(T.salida)).toBeEnabled();
    expect(button(T.entrada)).toBeDisabled();
    expect(screen.getByText('Fichajes registrados hoy: 1')).toBeInTheDocument();
  });

  it('a refused Salida shows the server detail (the active-task rule)', async () => {
    useTimeclock.setState({
      status: clockStatus({ status: 'clocked_in', can_clock_in: false, can_clock_out: true }),
    });
    mockFetch(() => json(409, { detail: ERR.salidaWithTask }));
    render(<TimeclockWidget />);
    await userEvent.click(button(T.salida));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(ERR.salidaWithTask));
    expect(button(T.salida)).toBeEnabled();
  });

  it('falls back to the SPEC §8 texts when the server gives no detail', async () => {
    useTimeclock.setState({ status: clockStatus() });
    mockFetch(() => new Response('boom', { status: 500 }));
    render(<TimeclockWidget />);
    await userEvent.click(button(T.entrada));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.punchInError));

    cleanup();
    vi.mocked(toast.error).mockClear();
    useTimeclock.setState({
      status: clockStatus({ status: 'clocked_in', can_clock_in: false, can_clock_out: true }),
    });
    render(<TimeclockWidget />);
    await userEvent.click(button(T.salida));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.punchOutError));
  });

  it('follows a status pushed by timeclock:updated', () => {
    useTimeclock.setState({ status: clockStatus() });
    render(<TimeclockWidget />);
    act(() =>
      useTimeclock
        .getState()
        .received(clockStatus({ status: 'clocked_out', can_clock_in: true, punches_today: 2 })),
    );
    expect(screen.getByTestId('timeclock-status')).toHaveTextContent('Fuera de turno');
    expect(screen.getByText('Fichajes registrados hoy: 2')).toBeInTheDocument();
  });
});
