import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TASK_MSG, TOAST, UI_ANALYTICS, UI_EXPORT } from '@shared/labels';
import type { DriverAnalyticsRow } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { useDriverAnalytics } from '../../stores/driverAnalytics';
import { AnalyticsView } from './AnalyticsView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const driver = (
  name: string,
  movements: number,
  over: Partial<DriverAnalyticsRow> = {},
): DriverAnalyticsRow => ({
  id: `id-${name}`,
  name,
  email: `${name.toLowerCase()}@patio.es`,
  is_online: false,
  movements_count: movements,
  total_time_online_24h: 135,
  average_task_completion_time: 12.5,
  last_activity: '2026-11-21T09:15:00.000Z',
  ...over,
});

const rows = [
  driver('Bea', 3),
  driver('Ana', 10, { is_online: true }),
  driver('Carla', 7, { average_task_completion_time: null, last_activity: null }),
  driver('Dani', 5),
  driver('Eva', 3),
];

beforeEach(() => {
  useDriverAnalytics.setState({ rows: [], loaded: false, failed: false });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rowOf = (name: string) => within(screen.getByText(name).closest('tr')!);

describe('Analytics de Conductores', { timeout: 20_000 }, () => {
  it('ranks by movements with medals and #1–#3 for the top three', async () => {
    mockFetch(() => json(200, rows));
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    const names = screen.getAllByTestId('analytics-row').map((tr) => tr.querySelector('p')!.textContent);
    expect(names).toEqual(['Ana', 'Carla', 'Dani', 'Bea', 'Eva']);
    expect(rowOf('Ana').getByTestId('medal')).toHaveTextContent('#1');
    expect(rowOf('Ana').getByRole('img', { name: UI_ANALYTICS.medal(1) })).toBeInTheDocument();
    expect(rowOf('Carla').getByTestId('medal')).toHaveTextContent('#2');
    expect(rowOf('Dani').getByTestId('medal')).toHaveTextContent('#3');
    expect(rowOf('Bea').queryByTestId('medal')).toBeNull();
  });

  it('gives no medal to a driver without movements', async () => {
    mockFetch(() => json(200, [driver('Ana', 2), driver('Bea', 0)]));
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    expect(screen.getAllByTestId('medal')).toHaveLength(1);
  });

  it('shows the columns: email, Online/Offline, Xh Ymin, N/A and the Madrid time', async () => {
    mockFetch(() => json(200, rows));
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    const ana = rowOf('Ana');
    expect(ana.getByText('ana@patio.es')).toBeInTheDocument();
    expect(ana.getByText('Online')).toBeInTheDocument();
    expect(ana.getByText('2 h 15 min')).toBeInTheDocument();
    expect(ana.getByText('12 min')).toBeInTheDocument();
    expect(ana.getByText('21/11/2026, 10:15')).toBeInTheDocument();
    const carla = rowOf('Carla');
    expect(carla.getByText('Offline')).toBeInTheDocument();
    expect(carla.getAllByText('N/A')).toHaveLength(2);
  });

  it('sums the four cards, the average rounded', async () => {
    mockFetch(() => json(200, rows));
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    const card = (label: string) => screen.getByText(label).parentElement!;
    expect(card(UI_ANALYTICS.stats.total)).toHaveTextContent('5');
    expect(card(UI_ANALYTICS.stats.online)).toHaveTextContent('1');
    expect(card(UI_ANALYTICS.stats.movements)).toHaveTextContent('28');
    // 28 / 5 = 5.6
    expect(card(UI_ANALYTICS.stats.average)).toHaveTextContent('6');
  });

  it('shows the empty text without drivers', async () => {
    mockFetch(() => json(200, []));
    render(<AnalyticsView />);
    expect(await screen.findByText(UI_ANALYTICS.empty)).toBeInTheDocument();
  });

  it('resets the rankings only after the confirmation, then toasts the server message and reloads', async () => {
    let served = rows;
    const fetch = mockFetch((path) => {
      if (path === '/admin/reset-rankings') {
        served = rows.map((r) => ({ ...r, movements_count: 0 }));
        return json(200, { message: TASK_MSG.rankingsReset });
      }
      return json(200, served);
    });
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    await userEvent.click(screen.getByRole('button', { name: UI_ANALYTICS.reset }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(UI_ANALYTICS.resetDialog.irreversible)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('reset-rankings'))).toBe(false);

    await userEvent.click(dialog.getByRole('button', { name: UI_ANALYTICS.resetDialog.confirm }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(TASK_MSG.rankingsReset));
    await vi.waitFor(() => expect(screen.queryAllByTestId('medal')).toHaveLength(0));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('toasts the reset fallback and keeps the dialog open when it fails', async () => {
    mockFetch((path) =>
      path === '/admin/reset-rankings' ? new Response('', { status: 500 }) : json(200, rows),
    );
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    await userEvent.click(screen.getByRole('button', { name: UI_ANALYTICS.reset }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(dialog.getByRole('button', { name: UI_ANALYTICS.resetDialog.confirm }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.resetRankingsError));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('export: lists the contents, needs both dates, names the file analytics_tareas_{from}_to_{to}.xlsx', async () => {
    const fetch = mockFetch((path) =>
      path === '/admin/analytics/export-excel' ? new Response('xlsx', { status: 200 }) : json(200, rows),
    );
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    render(<AnalyticsView />);
    await screen.findByText('Ana');
    await userEvent.click(screen.getByRole('button', { name: UI_EXPORT.open }));
    const dialog = within(await screen.findByRole('dialog'));
    for (const item of UI_EXPORT.analytics.contents) expect(dialog.getByText(item)).toBeInTheDocument();
    const download = dialog.getByRole('button', { name: UI_EXPORT.download });
    expect(download).toBeDisabled();
    expect(dialog.getByText(ERR.bothDates)).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText(UI_EXPORT.dateTo), { target: { value: '2026-11-22' } });
    expect(download).toBeDisabled();
    fireEvent.change(dialog.getByLabelText(UI_EXPORT.dateFrom), { target: { value: '2026-11-01' } });
    await userEvent.click(download);
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.analyticsDownloaded));
    expect(names).toEqual(['analytics_tareas_2026-11-01_to_2026-11-22.xlsx']);
    const call = fetch.mock.calls.find(([url]) => String(url).includes('export-excel'))!;
    expect(String(call[0])).toContain('date_from=2026-11-01&date_to=2026-11-22');
    click.mockRestore();
  });

  it('toasts the SPEC §8 fallback when loading fails', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    render(<AnalyticsView />);
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(TOAST.loadAnalyticsError, expect.anything()),
    );
  });
});
