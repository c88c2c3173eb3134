import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERR, TRUCK_STAYS_EXCEL, UI_TRUCK_STAYS } from '@shared/labels';
import type { GateVisit, TruckStaysReport } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { useTruckStays } from '../../stores/truckStays';
import { defaultRange } from '../../stores/range-report';
import { TruckStays } from './TruckStays';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = UI_TRUCK_STAYS;
const visit: GateVisit = {
  id: 'v1',
  truck_plate: '1234-ABC',
  carrier: 'Transportes Ruiz',
  driver_name: null,
  appointment_at: null,
  entered_at: '2026-11-20T08:00:00.000Z',
  exited_at: '2026-11-20T09:30:00.000Z',
  stay_s: 5400,
  wait_s: 5400,
  dropped_trailer_id: null,
  picked_trailer_id: null,
  entry_seal: null,
  exit_seal: null,
  seal_mismatch: false,
};
const report = (from: string, to: string): TruckStaysReport => ({
  period: { from, to },
  carriers: [{ carrier: 'Transportes Ruiz', visits: 3, p50_s: 1500, p90_s: 3900, max_s: 5400, over_1h: 1 }],
  visits: [visit],
});

beforeEach(() => {
  useTruckStays.setState({
    from: '2026-11-15',
    to: '2026-11-21',
    report: null,
    loading: false,
    failed: false,
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Informes → Tiempos de espera', () => {
  it('defaults to the last 7 Madrid days through today', () => {
    // 23:30 UTC on 21 Nov is already the 22nd in Madrid.
    expect(defaultRange(Date.parse('2026-11-21T23:30:00Z'))).toEqual({
      from: '2026-11-16',
      to: '2026-11-22',
    });
  });

  it('shows the carriers with their waits formatted and the visits over 1 h; a new day asks again', async () => {
    const fetch = mockFetch((path) => {
      expect(path).toBe('/admin/reports/truck-stays');
      const q = new URL(String(fetch.mock.calls.at(-1)?.[0]), 'http://localhost').searchParams;
      return json(200, report(q.get('from')!, q.get('to')!));
    });
    render(<TruckStays />);
    const row = await screen.findByTestId('carrier-waits');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['Transportes Ruiz', '3', '25 min', '1 h 05 min', '1 h 30 min', '1']);
    const long = screen.getByTestId('long-wait');
    expect(long).toHaveTextContent('1234-ABC');
    expect(long).toHaveTextContent('1 h 30 min');
    expect(String(fetch.mock.calls[0][0])).toContain('from=2026-11-15&to=2026-11-21');

    fireEvent.change(screen.getByLabelText(T.from), { target: { value: '2026-11-01' } });
    await vi.waitFor(() => expect(String(fetch.mock.calls.at(-1)?.[0])).toContain('from=2026-11-01'));
  });

  it('refuses a range in the wrong order without asking the server', async () => {
    const fetch = mockFetch((_path) => json(200, report('2026-11-15', '2026-11-21')));
    render(<TruckStays />);
    await screen.findByTestId('carrier-waits');
    const calls = fetch.mock.calls.length;
    fireEvent.change(screen.getByLabelText(T.from), { target: { value: '2026-11-30' } });
    expect(await screen.findByText(ERR.dateOrder)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.exportExcel })).toBeDisabled();
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it('Exportar Excel downloads the workbook of the range', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const fetch = mockFetch((path) =>
      path.endsWith('/export-excel')
        ? new Response('xlsx', { status: 200 })
        : json(200, report('2026-11-15', '2026-11-21')),
    );
    render(<TruckStays />);
    await screen.findByTestId('carrier-waits');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: T.exportExcel }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const excel = fetch.mock.calls.find(([u]) => String(u).includes('/export-excel'));
    expect(String(excel?.[0])).toContain('from=2026-11-15&to=2026-11-21');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      TRUCK_STAYS_EXCEL.fileName('2026-11-15', '2026-11-21'),
    );
    click.mockRestore();
  });
});
