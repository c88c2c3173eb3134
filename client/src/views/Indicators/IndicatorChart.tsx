// One chart of one indicator, drawn by uPlot (canvas; ~20 kB gzip, and loaded only with this view). The
// days read as a line, the hours and shifts as bars. The figure's own formatter writes the axis, so a
// wait reads `12 min` and a rate `87 %`; the legend under it gives the value under the cursor.
import { useEffect, useRef } from 'react';
import uPlot, { type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { IndicatorFigure } from '@shared/schemas';
import { formatIndicator } from '@shared/labels';

export interface ChartSeries {
  /** The x positions' names, in order (`23/11`, `07 h`, `tarde`). */
  labels: readonly string[];
  values: readonly (number | null)[];
}

interface IndicatorChartProps {
  title: string;
  figure: IndicatorFigure;
  series: ChartSeries;
  shape: 'line' | 'bars';
  height?: number;
}

const BLUE = '#2563eb';

function options(props: IndicatorChartProps, width: number): Options {
  const { figure, series, shape, height = 200 } = props;
  const name = (i: number) => series.labels[Math.round(i)] ?? '';
  return {
    width,
    height,
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    scales: {
      // Whole positions 0…n−1; half a step of room each side so the first and last bar are whole.
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
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
      { values: (_u, splits) => splits.map((v) => formatIndicator(figure, v)), size: 72 },
    ],
    series: [
      { label: '', value: (_u, v) => (v === null ? '' : name(v)) },
      {
        label: props.title,
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
  const { title, figure, series, shape, height } = props;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [series.values.map((_, i) => i), [...series.values]];
    const plot = new uPlot(options({ title, figure, series, shape, height }, el.clientWidth), data, el);
    // The card's width follows the window (a wall, a desk, a rotated tablet).
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: height ?? 200 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [title, figure, series, shape, height]);

  return (
    <figure className="min-w-0">
      <figcaption className="mb-2 text-sm font-semibold text-slate-700">{title}</figcaption>
      <div ref={box} role="img" aria-label={title} data-testid="indicator-chart" className="w-full" />
    </figure>
  );
}
