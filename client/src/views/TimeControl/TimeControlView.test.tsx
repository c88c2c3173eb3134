import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_EXPORT, UI_TIME_CONTROL } from '@shared/labels';
import type { DailySummary } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { useTimeControl } from '../../stores/timeControl';
import { TimeControlView } from './TimeControlView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const row = (over: Partial<DailySummary>): DailySummary => ({
  user_id: '00000000-0000-4000-8000-0000abcd1234',
  user_name: 'Lucía',
  status: 'clocked_out',
  clock_in: '2026-11-21T06:00:00.000Z',
  clock_out: '2026-11-21T14:00:00.000Z',
  total_hours: 8,
  punches: [
    { clock_type: 'entrada', timestamp: '2026-11-21T06:00:00.000Z' },
    { clock_type: 'salida', timestamp: '2026-11-21T14:00:00.000Z' },
  ],
  ...over,
});

beforeEach(() => {
  useTimeControl.setState({ rows: [], loaded: false, failed: false, loadedAt: 0 });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
    expect(hours('Ocho')).toHaveTextContent('8h 0min');
    expect(hours('Ocho')).toHaveAttribute('data-tone', 'green');
    expect(hours('Casi')).toHaveTextContent('7h 59min');
    expect(hours('Casi')).toHaveAttribute('data-tone', 'yellow');
    expect(hours('Diez')).toHaveTextContent('10h 15min');
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
