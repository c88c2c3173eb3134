import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_EXPORT, UI_TIME_CONTROL } from '@shared/labels';
import type { DailySummary } from '@shared/schemas';
import { json, mockFetch, sentBody } from '../../test/http';
import { useTimeControl } from '../../stores/timeControl';
import { TimeControlView } from './TimeControlView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const ENTRADA_ID = '00000000-0000-4000-8000-00000000e001';
const SALIDA_ID = '00000000-0000-4000-8000-00000000e002';
const row = (over: Partial<DailySummary>): DailySummary => ({
  user_id: '00000000-0000-4000-8000-0000abcd1234',
  user_name: 'Lucía',
  status: 'clocked_out',
  clock_in: '2026-11-21T06:00:00.000Z',
  clock_out: '2026-11-21T14:00:00.000Z',
  total_hours: 8,
  punches: [
    {
      id: ENTRADA_ID,
      clock_type: 'entrada',
      timestamp: '2026-11-21T06:00:00.000Z',
      corrected: false,
      offline: false,
    },
    {
      id: SALIDA_ID,
      clock_type: 'salida',
      timestamp: '2026-11-21T14:00:00.000Z',
      corrected: false,
      offline: false,
    },
  ],
  corrections: [],
  ...over,
});

// The fixtures' day, late afternoon in Madrid: their punches are today's.
const FIXTURE_NOW = Date.parse('2026-11-21T16:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers({ now: FIXTURE_NOW, toFake: ['Date'] });
  useTimeControl.setState({ rows: [], loaded: false, failed: false, loadedAt: 0 });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A date picked in the browser's picker (typing digit by digit into a date input is not how it is used). */
const pick = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

const rowOf = (name: string) => within(screen.getByText(name).closest('tr')!);

describe('Control Conductores table', { timeout: 20_000 }, () => {
  it('asks for the last 24 hours and shows each driver with short id, status, times and punches', async () => {
    const fetch = mockFetch(() => json(200, [row({})]));
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    expect(String(fetch.mock.calls[0][0])).toContain('/api/admin/timeclock/daily?last_24h=true');
    expect(screen.getByText(UI_TIME_CONTROL.last24h)).toBeInTheDocument();
    const r = rowOf('Lucía');
    expect(r.getByText('#abcd1234')).toBeInTheDocument();
    expect(r.getByText('Finalizado')).toBeInTheDocument();
    // Madrid is UTC+1 in November.
    expect(r.getByText('21/11/2026, 07:00')).toBeInTheDocument();
    expect(r.getByText('21/11/2026, 15:00')).toBeInTheDocument();
    expect(r.getByText('07:00')).toBeInTheDocument();
    expect(r.getByText('15:00')).toBeInTheDocument();
    expect(r.getByText('Entrada')).toBeInTheDocument();
    expect(r.getByText('Salida')).toBeInTheDocument();
  });

  it('a punch of another day in the 24 hours says its day (a window across midnight)', async () => {
    vi.setSystemTime(Date.parse('2026-11-22T09:00:00.000Z'));
    mockFetch(() => json(200, [row({})]));
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    const chips = rowOf('Lucía').getAllByRole('listitem');
    expect(chips[0]).toHaveTextContent('Entrada21/11, 07:00');
    expect(chips[1]).toHaveTextContent('Salida21/11, 15:00');
    expect(
      screen.getByRole('button', { name: UI_TIME_CONTROL.removePunch('Salida', '21/11, 15:00') }),
    ).toBeInTheDocument();
  });

  it('colours 8 hours or more green and less yellow (SPEC §9)', async () => {
    mockFetch(() =>
      json(200, [
        row({ user_id: 'a-00000001', user_name: 'Ocho', total_hours: 8 }),
        row({ user_id: 'a-00000002', user_name: 'Casi', total_hours: 7.99 }),
        row({ user_id: 'a-00000003', user_name: 'Diez', total_hours: 10.25 }),
      ]),
    );
    render(<TimeControlView />);
    await screen.findByText('Ocho');
    const hours = (name: string) => rowOf(name).getByTestId('hours-worked');
    expect(hours('Ocho')).toHaveTextContent('8 h 00 min');
    expect(hours('Ocho')).toHaveAttribute('data-tone', 'green');
    expect(hours('Casi')).toHaveTextContent('7 h 59 min');
    expect(hours('Casi')).toHaveAttribute('data-tone', 'yellow');
    expect(hours('Diez')).toHaveTextContent('10 h 15 min');
    expect(hours('Diez')).toHaveAttribute('data-tone', 'green');
  });

  it('labels every status, and an unknown one Desconocido', async () => {
    mockFetch(() =>
      json(200, [
        row({ user_id: 'b1', user_name: 'A', status: 'working', clock_out: null }),
        row({ user_id: 'b2', user_name: 'B', status: 'not_started', punches: [], total_hours: 0 }),
        row({ user_id: 'b3', user_name: 'C', status: 'incomplete' }),
        row({ user_id: 'b4', user_name: 'D', status: 'vacaciones' as DailySummary['status'] }),
      ]),
    );
    render(<TimeControlView />);
    await screen.findByText('A');
    expect(rowOf('A').getByText('Trabajando')).toBeInTheDocument();
    expect(rowOf('B').getByText('Sin fichar')).toBeInTheDocument();
    expect(rowOf('C').getByText('Incompleto')).toBeInTheDocument();
    expect(rowOf('D').getByText('Desconocido')).toBeInTheDocument();
  });

  it('shows the empty text when there are no drivers', async () => {
    mockFetch(() => json(200, []));
    render(<TimeControlView />);
    expect(await screen.findByText(UI_TIME_CONTROL.empty)).toBeInTheDocument();
  });

  it('toasts the SPEC §8 fallback when loading fails', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    render(<TimeControlView />);
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(TOAST.loadTimeControlError, expect.anything()),
    );
  });
});

describe('Excel export dialog (SPEC §5)', { timeout: 20_000 }, () => {
  const open = async () => {
    await userEvent.click(screen.getByRole('button', { name: UI_EXPORT.open }));
    return within(await screen.findByRole('dialog'));
  };

  it('keeps Descargar Excel disabled until both dates are set', async () => {
    mockFetch(() => json(200, []));
    render(<TimeControlView />);
    const dialog = await open();
    const download = dialog.getByRole('button', { name: UI_EXPORT.download });
    expect(download).toBeDisabled();
    expect(dialog.getByText(ERR.bothDates)).toBeInTheDocument();
    pick(dialog.getByLabelText(UI_EXPORT.dateFrom), '2026-11-01');
    expect(download).toBeDisabled();
    expect(dialog.getByText(ERR.bothDates)).toBeInTheDocument();
    pick(dialog.getByLabelText(UI_EXPORT.dateTo), '2026-11-22');
    expect(download).toBeEnabled();
    expect(dialog.queryByText(ERR.bothDates)).not.toBeInTheDocument();
  });

  it('refuses a range that ends before it starts', async () => {
    mockFetch(() => json(200, []));
    render(<TimeControlView />);
    const dialog = await open();
    pick(dialog.getByLabelText(UI_EXPORT.dateFrom), '2026-11-22');
    pick(dialog.getByLabelText(UI_EXPORT.dateTo), '2026-11-01');
    expect(dialog.getByRole('button', { name: UI_EXPORT.download })).toBeDisabled();
    expect(dialog.getByRole('alert')).toHaveTextContent(ERR.dateOrder);
  });

  it('fills both dates from a preset (issue 30): Ayer, then Este mes, by the Madrid date', async () => {
    // 23:30 UTC on 30 Nov is already 1 Dec in Madrid: "Ayer" is 30 Nov, "Este mes" only the 1st.
    vi.useFakeTimers({ now: Date.parse('2026-11-30T23:30:00Z'), toFake: ['Date'] });
    try {
      mockFetch(() => json(200, []));
      render(<TimeControlView />);
      const dialog = await open();
      await userEvent.click(dialog.getByRole('button', { name: 'Ayer' }));
      expect(dialog.getByLabelText(UI_EXPORT.dateFrom)).toHaveValue('2026-11-30');
      expect(dialog.getByLabelText(UI_EXPORT.dateTo)).toHaveValue('2026-11-30');
      expect(dialog.getByRole('button', { name: 'Ayer' })).toHaveAttribute('aria-pressed', 'true');
      await userEvent.click(dialog.getByRole('button', { name: '30 días' }));
      expect(dialog.getByLabelText(UI_EXPORT.dateFrom)).toHaveValue('2026-11-02');
      expect(dialog.getByLabelText(UI_EXPORT.dateTo)).toHaveValue('2026-12-01');
      expect(dialog.getByRole('button', { name: UI_EXPORT.download })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('downloads control_horario_{from}_to_{to}.xlsx and toasts success', async () => {
    const fetch = mockFetch((path) =>
      path === '/admin/timeclock/export-excel' ? new Response('xlsx', { status: 200 }) : json(200, []),
    );
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    render(<TimeControlView />);
    const dialog = await open();
    pick(dialog.getByLabelText(UI_EXPORT.dateFrom), '2026-11-01');
    pick(dialog.getByLabelText(UI_EXPORT.dateTo), '2026-11-22');
    await userEvent.click(dialog.getByRole('button', { name: UI_EXPORT.download }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.excelDownloaded));
    const call = fetch.mock.calls.find(([url]) => String(url).includes('export-excel'))!;
    expect(String(call[0])).toContain('date_from=2026-11-01&date_to=2026-11-22');
    expect(names).toEqual(['control_horario_2026-11-01_to_2026-11-22.xlsx']);
    click.mockRestore();
  });

  it('toasts the export fallback when the server fails', async () => {
    mockFetch((path) =>
      path === '/admin/timeclock/export-excel' ? new Response('', { status: 500 }) : json(200, []),
    );
    render(<TimeControlView />);
    const dialog = await open();
    pick(dialog.getByLabelText(UI_EXPORT.dateFrom), '2026-11-01');
    pick(dialog.getByLabelText(UI_EXPORT.dateTo), '2026-11-02');
    await userEvent.click(dialog.getByRole('button', { name: UI_EXPORT.download }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.exportError));
  });
});

describe('punch corrections (CONTRACT §15)', { timeout: 20_000 }, () => {
  const T = UI_TIME_CONTROL;

  it('marks a corrected punch and the row Corregido, with who, when and why; a removed punch is listed', async () => {
    mockFetch(() =>
      json(200, [
        row({
          punches: [
            {
              id: ENTRADA_ID,
              clock_type: 'entrada',
              timestamp: '2026-11-21T06:00:00.000Z',
              corrected: false,
              offline: false,
            },
            {
              id: SALIDA_ID,
              clock_type: 'salida',
              timestamp: '2026-11-21T14:00:00.000Z',
              corrected: true,
              offline: false,
            },
          ],
          corrections: [
            {
              punch_id: '00000000-0000-4000-8000-00000000e003',
              action: 'removed',
              clock_type: 'salida',
              punch_timestamp: '2026-11-21T07:00:00.000Z',
              reason: 'Pulsó por error',
              actor_name: 'Marta Jefa',
              at: '2026-11-21T15:00:00.000Z',
            },
            {
              punch_id: SALIDA_ID,
              action: 'added',
              clock_type: 'salida',
              punch_timestamp: '2026-11-21T14:00:00.000Z',
              reason: 'Olvidó fichar',
              actor_name: 'Marta Jefa',
              at: '2026-11-21T15:05:00.000Z',
            },
          ],
        }),
        row({ user_id: '00000000-0000-4000-8000-0000abcd9999', user_name: 'Pedro' }),
      ]),
    );
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    const r = rowOf('Lucía');
    expect(r.getByTestId('row-corrected')).toHaveTextContent(T.corrected);
    expect(r.getByTestId('row-corrected')).toHaveAttribute(
      'title',
      expect.stringContaining('Añadido por Marta Jefa el 21/11/2026, 16:05: Olvidó fichar'),
    );
    const list = r.getByRole('list', { name: T.corrections });
    expect(list).toHaveTextContent('Salida 08:00 eliminada');
    expect(list).toHaveTextContent('Eliminado por Marta Jefa el 21/11/2026, 16:00: Pulsó por error');
    const chips = r.getAllByRole('listitem').filter((li) => li.hasAttribute('data-corrected'));
    expect(chips).toHaveLength(1);
    expect(chips[0]).toHaveTextContent(`Salida15:00· ${T.corrected}`);
    // A row nobody corrected says nothing of it.
    expect(within(screen.getByText('Pedro').closest('tr')!).queryByText(T.corrected)).not.toBeInTheDocument();
  });

  it('adds a punch: Madrid date and time, reason required, POSTs and reloads', async () => {
    const fetch = mockFetch((_path, init) =>
      init.method === 'POST' ? json(201, { message: 'Fichaje añadido', punch: {} }) : json(200, [row({})]),
    );
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    await userEvent.click(screen.getByRole('button', { name: `${T.addPunch}: Lucía` }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(T.addDialog.title('Lucía'))).toBeInTheDocument();
    pick(dialog.getByLabelText(T.addDialog.date), '2026-11-20');
    pick(dialog.getByLabelText(T.addDialog.time), '22:30');
    await userEvent.click(dialog.getByRole('button', { name: T.addDialog.submit }));
    expect(dialog.getByRole('alert')).toHaveTextContent(T.addDialog.reasonRequired);
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.type(dialog.getByLabelText(T.addDialog.reason), 'Olvidó fichar');
    const loadsBefore = fetch.mock.calls.length;
    await userEvent.click(dialog.getByRole('button', { name: T.addDialog.submit }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Fichaje añadido'));
    const post = fetch.mock.calls.findIndex(([, init]) => init?.method === 'POST');
    expect(String(fetch.mock.calls[post][0])).toContain('/api/admin/timeclock/punches');
    // The last punch was a salida: the dialog proposes an entrada. 22:30 in Madrid (UTC+1) is 21:30Z.
    expect(sentBody(fetch, post)).toEqual({
      user_id: '00000000-0000-4000-8000-0000abcd1234',
      clock_type: 'entrada',
      timestamp: '2026-11-20T21:30:00.000Z',
      reason: 'Olvidó fichar',
    });
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThan(loadsBefore + 1));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server refusal and stays open', async () => {
    mockFetch((_path, init) =>
      init.method === 'POST'
        ? json(400, { detail: 'La hora del fichaje no puede ser posterior a la hora actual' })
        : json(200, [row({})]),
    );
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    await userEvent.click(screen.getByRole('button', { name: `${T.addPunch}: Lucía` }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText(T.addDialog.reason), 'x');
    await userEvent.click(dialog.getByRole('button', { name: T.addDialog.submit }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('La hora del fichaje no puede ser posterior a la hora actual'),
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('removes a punch after confirming with a reason', async () => {
    const fetch = mockFetch((_path, init) =>
      init.method === 'DELETE'
        ? json(200, { message: 'Fichaje eliminado', punch: {} })
        : json(200, [row({})]),
    );
    render(<TimeControlView />);
    await screen.findByText('Lucía');
    await userEvent.click(screen.getByRole('button', { name: T.removePunch('Salida', '15:00') }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      dialog.getByText(T.removeDialog.message('Lucía', 'Salida', '21/11/2026, 15:00')),
    ).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: T.removeDialog.confirm }));
    expect(dialog.getByRole('alert')).toHaveTextContent(T.addDialog.reasonRequired);
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await userEvent.type(dialog.getByLabelText(T.removeDialog.reason), 'Duplicado');
    await userEvent.click(dialog.getByRole('button', { name: T.removeDialog.confirm }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Fichaje eliminado'));
    const del = fetch.mock.calls.findIndex(([, init]) => init?.method === 'DELETE');
    expect(String(fetch.mock.calls[del][0])).toContain(`/api/admin/timeclock/punches/${SALIDA_ID}`);
    expect(sentBody(fetch, del)).toEqual({ reason: 'Duplicado' });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
