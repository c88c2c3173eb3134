import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { TOAST, UI_COMMON, UI_REPORTS } from '@shared/labels';
import type { DeficiencyIncident, DelayedAssignment } from '@shared/schemas';
import { json, mockFetch } from '../../test/http';
import { useReports, type Report, type ReportParams } from '../../stores/reports';
import { hourBuckets } from './IncidentsChart';
import { ReportsView } from './ReportsView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
// Tiempos de espera has its own endpoint and test (TruckStays.test.tsx).
vi.mock('./TruckStays', () => ({ TruckStays: () => null }));

const deficiency = (delay: number, over: Partial<DeficiencyIncident> = {}): DeficiencyIncident => ({
  task_id: `t-${delay}`,
  task_title: 'Mover',
  priority: 'normal',
  reason: 'no_drivers_available',
  reason_detail: 'Sin conductores disponibles',
  delay_minutes: delay,
  trailer_id: `R-${delay}`,
  created_at: '2026-11-21T09:00:00.000Z',
  timestamp: null,
  status: 'bolsa_trabajo',
  due_at: null,
  late_s: null,
  ...over,
});

const delayed = (delay: number): DelayedAssignment => ({
  task_id: `d-${delay}`,
  task_title: 'Recolocar',
  priority: 'high',
  status: 'finalizada',
  completion_delay_minutes: delay,
  assigned_to_name: 'Lucía',
  trailer_id: `D-${delay}`,
  assigned_at: '2026-11-21T09:00:00.000Z',
  completed_at: '2026-11-21T10:00:00.000Z',
  due_at: '2026-11-21T09:48:00.000Z',
  late_s: 12 * 60,
});

const summary = (n: number) => ({
  total_incidents: n,
  avg_delay_minutes: 25.5,
  max_delay_minutes: 31,
  period: 'Últimas 24 horas',
});

const params: ReportParams = { type: 'deficiencies', period: '24h', date: '2026-11-21', hour: 9 };

beforeEach(() => {
  useReports.setState({ params, report: null, loading: false, failed: false });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Informes de Operaciones', { timeout: 20_000 }, () => {
  it('colours each incident by its delay: over 30 red, over 20 orange, else yellow (SPEC §9)', async () => {
    const delays = [45, 31, 30, 21, 20, 10.1];
    mockFetch(() =>
      json(200, {
        summary: summary(delays.length),
        incidents: delays.map((d, i) =>
          deficiency(
            d,
            i === 1 ? { reason: 'other', reason_detail: 'Devuelta por Ana: Rueda pinchada' } : {},
          ),
        ),
      }),
    );
    render(<ReportsView />);
    await screen.findAllByTestId('incident');
    const tones = screen.getAllByTestId('incident').map((li) => li.getAttribute('data-tone'));
    expect(tones).toEqual(['red', 'red', 'orange', 'orange', 'yellow', 'yellow']);
    const first = within(screen.getAllByTestId('incident')[0]);
    expect(first.getByText('45 min')).toBeInTheDocument();
    expect(first.getByText('Sin conductores disponibles')).toBeInTheDocument();
    // CONTRACT §22: the detail names who returned the task and why, the SPEC reason stays behind it.
    expect(
      within(screen.getAllByTestId('incident')[1]).getByText('Devuelta por Ana: Rueda pinchada'),
    ).toHaveAttribute('title', 'Otro');
    expect(first.getByText('R-45')).toBeInTheDocument();
    expect(first.getByText('Todavía no')).toBeInTheDocument();
    // One duration format (CONTRACT §15): whole minutes, floored.
    expect(screen.getAllByText('10 min').length).toBeGreaterThan(0);
  });

  it('shows the summary cards; toasts the incident count only when asked, never for opening the view', async () => {
    mockFetch(() => json(200, { summary: summary(1), incidents: [deficiency(31)] }));
    render(<ReportsView />);
    await vi.waitFor(() => expect(screen.getByTestId('report-total')).toHaveTextContent('1'));
    expect(toast.success).not.toHaveBeenCalled();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: UI_COMMON.refresh }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(TOAST.reportGenerated(1)));
    expect(screen.getByText('25 min')).toBeInTheDocument();
    expect(screen.getAllByText('31 min').length).toBeGreaterThan(0);
    expect(screen.getByText('Últimas 24 horas')).toBeInTheDocument();
  });

  it('regenerates when the type changes, from the other endpoint', async () => {
    const fetch = mockFetch((path) =>
      path === '/admin/reports/deficiencies'
        ? json(200, { summary: summary(0), incidents: [] })
        : json(200, { summary: summary(2), assignments: [delayed(35), delayed(15)] }),
    );
    render(<ReportsView />);
    expect(await screen.findByText(UI_REPORTS.empty)).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();

    act(() => useReports.getState().setParams({ type: 'delayed-assignments' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('incident')).toHaveLength(2));
    expect(String(fetch.mock.calls.at(-1)![0])).toContain(
      '/api/admin/reports/delayed-assignments?period=24h',
    );
    expect(toast.success).toHaveBeenLastCalledWith(TOAST.reportGenerated(2));
    const first = within(screen.getAllByTestId('incident')[0]);
    expect(first.getByText('Lucía')).toBeInTheDocument();
    expect(first.getByText('Finalizada', { selector: 'span' })).toBeInTheDocument();
    expect(first.getByText('Alta')).toBeInTheDocument();
    // CONTRACT §20: how late it was finished against its deadline.
    expect(first.getByTestId('deadline')).toHaveTextContent('Retrasada 12 min');
  });

  it('sends the date for a day and the hour for an hour', async () => {
    const fetch = mockFetch(() => json(200, { summary: summary(0), incidents: [] }));
    render(<ReportsView />);
    await screen.findByText(UI_REPORTS.empty);
    act(() => useReports.getState().setParams({ period: 'hour', hour: 2 }));
    await vi.waitFor(() =>
      expect(String(fetch.mock.calls.at(-1)![0])).toContain('period=hour&date=2026-11-21&hour=2'),
    );
    expect(screen.getByLabelText(UI_REPORTS.date)).toHaveValue('2026-11-21');
    expect(screen.getByRole('combobox', { name: UI_REPORTS.hour })).toHaveTextContent('02:00');
  });

  it('toasts the fallback when the report fails', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    render(<ReportsView />);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(TOAST.reportError));
  });
});

describe('incidents per hour', () => {
  const report = (p: Partial<ReportParams>, incidents: DeficiencyIncident[] = []): Report => ({
    params: { ...params, ...p },
    type: 'deficiencies',
    summary: summary(incidents.length),
    incidents,
  });

  it('counts a day by its Madrid hours, with the worst colour of each hour', () => {
    const buckets = hourBuckets(
      report({ period: 'day', date: '2026-11-21' }, [
        deficiency(12, { created_at: '2026-11-21T09:10:00.000Z' }),
        deficiency(40, { created_at: '2026-11-21T09:50:00.000Z' }),
        deficiency(25, { created_at: '2026-11-20T23:30:00.000Z' }),
      ]),
      0,
    );
    expect(buckets).toHaveLength(24);
    expect(buckets[0]).toMatchObject({ label: '00:00', count: 1, tone: 'orange' });
    expect(buckets[10]).toMatchObject({ label: '10:00', count: 2, tone: 'red' });
    expect(buckets.filter((b) => b.count).length).toBe(2);
  });

  it('follows the daylight-saving days: 23 bars in March, 25 in October', () => {
    const spring = hourBuckets(report({ period: 'day', date: '2026-03-29' }), 0);
    expect(spring).toHaveLength(23);
    expect(spring.map((b) => b.label)).not.toContain('02:00');
    const autumn = hourBuckets(report({ period: 'hour', date: '2026-10-25', hour: 2 }), 0);
    expect(autumn).toHaveLength(25);
    expect(autumn.filter((b) => b.label === '02:00')).toHaveLength(2);
    // The hour period highlights its hour: both real hours of the repeated 02:00.
    expect(autumn.filter((b) => b.highlighted).map((b) => b.label)).toEqual(['02:00', '02:00']);
  });

  it('covers the last 24 clock hours for the 24h period', () => {
    const now = Date.parse('2026-11-21T09:30:00.000Z');
    const buckets = hourBuckets(
      report({ period: '24h' }, [deficiency(15, { created_at: '2026-11-21T09:05:00.000Z' })]),
      now,
    );
    expect(buckets).toHaveLength(24);
    expect(buckets.at(-1)).toMatchObject({ label: '10:00', count: 1, tone: 'yellow' });
  });
});
