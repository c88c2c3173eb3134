import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Indicators } from '@shared/schemas';
import { ERR, INDICATOR_LABELS, UI_INDICATORS, UI_PERIOD } from '@shared/labels';
import { SHIFTS } from '@shared/enums';
import { EMPTY_FIGURES } from '@shared/indicators';
import { json, mockFetch } from '../../test/http';
import { useIndicators } from '../../stores/indicators';
import { useTimeclock } from '../../stores/timeclock';
import { IndicatorsView } from './IndicatorsView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
// The canvas chart is uPlot's (no canvas in jsdom): what the view hands it is what is checked.
vi.mock('./IndicatorChart', () => ({
  IndicatorChart: ({ title, series }: { title: string; series: { labels: string[]; values: unknown[] } }) => (
    <figure data-testid="indicator-chart" aria-label={title}>
      {series.labels.map((l, i) => `${l}=${String(series.values[i])}`).join(' ')}
    </figure>
  ),
}));

const NOW = Date.parse('2026-11-28T10:00:00Z');
const zero = EMPTY_FIGURES;
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (
    let d = from;
    d <= to;
    d = new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  )
    out.push(d);
  return out;
};
const report = (from: string, to: string): Indicators => ({
  period: { from, to },
  days: days(from, to).map((date, i) => ({ ...zero, date, moves_completed: i + 1, late: i })),
  by_hour: Array.from({ length: 24 }, (_, hour) => ({ ...zero, hour, moves_completed: hour === 8 ? 5 : 0 })),
  by_shift: SHIFTS.map((shift) => ({ ...zero, shift, moves_completed: shift === 'tarde' ? 7 : 1 })),
  totals: { ...zero, moves_completed: 12, late: 3, pool_wait_p50_s: 750, on_time_rate: 0.875 },
  previous: {
    ...zero,
    from: '2026-11-15',
    to: '2026-11-21',
    moves_completed: 10,
    late: 2,
    pool_wait_p50_s: 1000,
    on_time_rate: null,
  },
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  useTimeclock.setState({ offsetMs: 0 });
  useIndicators.setState({
    from: '2026-11-22',
    to: '2026-11-28',
    figure: 'moves_completed',
    report: null,
    failed: false,
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const answer = () =>
  mockFetch((path) => {
    expect(path).toBe('/admin/indicators');
    const q = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost').searchParams;
    return json(200, report(q.get('from')!, q.get('to')!));
  });
let fetchMock: ReturnType<typeof mockFetch>;

describe('Indicadores', () => {
  it('shows each total with its change, coloured by whether up is good', async () => {
    fetchMock = answer();
    render(<IndicatorsView />);
    const moves = await screen.findByTestId('indicator-moves_completed');
    expect(moves).toHaveTextContent(INDICATOR_LABELS.moves_completed);
    expect(moves).toHaveTextContent('12');
    const movesChange = within(moves).getByTestId('indicator-change');
    expect(movesChange).toHaveTextContent('▲ 20 %');
    expect(movesChange.className).toContain('emerald');
    // More late moves is worse: up is red; a shorter wait is better: down is green.
    const late = within(screen.getByTestId('indicator-late')).getByTestId('indicator-change');
    expect(late).toHaveTextContent('▲ 50 %');
    expect(late.className).toContain('red');
    const wait = screen.getByTestId('indicator-pool_wait_p50_s');
    expect(wait).toHaveTextContent('12 min');
    expect(within(wait).getByTestId('indicator-change')).toHaveTextContent('▼ 25 %');
    expect(within(wait).getByTestId('indicator-change').className).toContain('emerald');
    // Nothing to compare with: said so, not a made-up change.
    const onTime = screen.getByTestId('indicator-on_time_rate');
    expect(onTime).toHaveTextContent('87,5 %');
    expect(onTime).toHaveTextContent(UI_INDICATORS.noComparison);
    expect(screen.getByText(UI_INDICATORS.previous('2026-11-15', '2026-11-21'))).toBeInTheDocument();
    expect(screen.getAllByTestId('indicator-day')).toHaveLength(7);
  });

  it('draws the chosen figure by day, hour and shift, and a tile changes the figure', async () => {
    fetchMock = answer();
    render(<IndicatorsView />);
    await screen.findByTestId('indicator-moves_completed');
    const [byDay, byHour, byShift] = screen.getAllByTestId('indicator-chart');
    expect(byDay).toHaveAccessibleName(UI_INDICATORS.perDay(INDICATOR_LABELS.moves_completed));
    expect(byDay).toHaveTextContent('22/11=1 23/11=2');
    expect(byHour).toHaveTextContent('08 h=5');
    expect(byShift).toHaveTextContent('mañana=1 tarde=7 noche=1');

    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByTestId('indicator-late'));
    expect(screen.getByTestId('indicator-late')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByTestId('indicator-chart')[0]).toHaveAccessibleName(
      UI_INDICATORS.perDay(INDICATOR_LABELS.late),
    );
    expect(screen.getAllByTestId('indicator-chart')[0]).toHaveTextContent('22/11=0 23/11=1');
  });

  it('asks again for a preset and for typed dates', async () => {
    fetchMock = answer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<IndicatorsView />);
    await screen.findByTestId('indicator-moves_completed');
    expect(String(fetchMock.mock.calls[0][0])).toContain('from=2026-11-22&to=2026-11-28');
    expect(screen.getByRole('button', { name: '7 días' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Ayer' }));
    await vi.waitFor(() =>
      expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('from=2026-11-27&to=2026-11-27'),
    );
    await user.click(screen.getByRole('button', { name: 'Este mes' }));
    await vi.waitFor(() =>
      expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('from=2026-11-01&to=2026-11-28'),
    );
    expect(await screen.findAllByTestId('indicator-day')).toHaveLength(28);

    await user.click(screen.getByRole('button', { name: UI_PERIOD.custom }));
    const from = screen.getByLabelText(UI_PERIOD.from);
    expect(from).toHaveAttribute('max', '2026-11-28');
    fireEvent.change(from, { target: { value: '2026-10-20' } });
    await vi.waitFor(() =>
      expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('from=2026-10-20&to=2026-11-28'),
    );
  });

  it('says typed days out of order without asking the server', async () => {
    fetchMock = answer();
    render(<IndicatorsView />);
    await screen.findByTestId('indicator-moves_completed');
    const asked = fetchMock.mock.calls.length;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: UI_PERIOD.custom }));
    // From the 22nd to the 20th.
    fireEvent.change(screen.getByLabelText(UI_PERIOD.to), { target: { value: '2026-11-20' } });
    expect(await screen.findByText(ERR.periodInvalid)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: UI_INDICATORS.exportExcel })).toBeDisabled();
    expect(fetchMock.mock.calls.length).toBe(asked);
  });

  it('says the load failed with the server down', async () => {
    mockFetch(() => json(500, { detail: 'x' }));
    render(<IndicatorsView />);
    expect(await screen.findByRole('alert')).toHaveTextContent(UI_INDICATORS.loadError);
  });
});
