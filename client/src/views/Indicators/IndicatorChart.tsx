// One chart of one indicator, drawn by uPlot (canvas; ~20 kB gzip, and loaded only with this view). The
// days read as a line, the hours and shifts as bars. The figure's own formatter writes the axis, so a
// wait reads `12 min` and a rate `87 %`; the legend under it gives the value under the cursor.
import { useEffect, useRef } from 'react';
import uPlot, { type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { IndicatorFigure } from '@shared/schemas';
import { formatIndicator, INDICATOR_LABELS } from '@shared/labels';
import { INDICATOR_RULES, type IndicatorKind } from '@shared/indicators';

export interface ChartSeries {
  /** The x positions' names, in order (`23/11`, `07 h`, `tarde`). */
  labels: readonly string[];
  values: readonly (number | null)[];
}

interface IndicatorChartProps {
  title: string;
  /** What the x positions are (`Día`, `Hora`, `Turno`): the legend's first name. */
  axis: string;
  figure: IndicatorFigure;
  series: ChartSeries;
  shape: 'line' | 'bars';
  height?: number;
}

const BLUE = '#2563eb';

// The steps the value axis may take, by the figure's kind: whole moves, round durations, tidy shares.
const STEPS: Record<IndicatorKind, number[]> = {
  count: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000],
  seconds: [1, 5, 10, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 14_400, 28_800, 86_400],
  rate: [0.05, 0.1, 0.2, 0.25, 0.5],
  per_hour: [0.1, 0.2, 0.5, 1, 2, 5, 10, 20],
};
/** The axis's top when every value is 0 or missing: one step of the kind, so the axis still reads. */
const EMPTY_TOP: Record<IndicatorKind, number> = { count: 5, seconds: 300, rate: 1, per_hour: 1 };

function options(props: IndicatorChartProps, width: number): Options {
  const { figure, series, shape, height = 200 } = props;
  const name = (i: number) => series.labels[Math.round(i)] ?? '';
  const kind = INDICATOR_RULES[figure].kind;
  return {
    width,
    height,
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    scales: {
      // Whole positions 0…n−1; half a step of room each side so the first and last bar are whole.
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      // From 0 always (a bar's height is its value); a share never past 100 %.
      y: {
        range: (_u, _min, max) => {
          const top = max > 0 ? max * 1.1 : EMPTY_TOP[kind];
          return [0, kind === 'rate' ? Math.min(1, top) : top];
        },
      },
    },
    axes: [
      {
        // A label per position while they fit, else every other, every third…
        splits: () => {
          const every = Math.max(1, Math.ceil((series.labels.length * 48) / width));
          return series.labels.map((_, i) => i).filter((i) => i % every === 0);
        },
        values: (_u, splits) => splits.map(name),
        grid: { show: false },
      },
      { incrs: STEPS[kind], values: (_u, splits) => splits.map((v) => formatIndicator(figure, v)), size: 80 },
    ],
    series: [
      { label: props.axis, value: (_u, v) => (v === null ? '—' : name(v)) },
      {
        label: INDICATOR_LABELS[figure],
        stroke: BLUE,
        width: 2,
        fill: shape === 'bars' ? 'rgba(37, 99, 235, 0.75)' : 'rgba(37, 99, 235, 0.08)',
        points: { show: shape === 'line' },
        paths: shape === 'bars' ? uPlot.paths.bars!({ size: [0.7, 48] }) : undefined,
        value: (_u, v) => formatIndicator(figure, v),
      },
    ],
  };
}

export function IndicatorChart(props: IndicatorChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const { title, axis, figure, series, shape, height } = props;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [series.values.map((_, i) => i), [...series.values]];
    const plot = new uPlot(options({ title, axis, figure, series, shape, height }, el.clientWidth), data, el);
    // The card's width follows the window (a wall, a desk, a rotated tablet).
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: height ?? 200 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [title, axis, figure, series, shape, height]);

  return (
    <figure className="min-w-0">
      <figcaption className="mb-2 text-sm font-semibold text-slate-700">{title}</figcaption>
      <div ref={box} role="img" aria-label={title} data-testid="indicator-chart" className="w-full" />
    </figure>
  );
}
