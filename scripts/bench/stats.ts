// Small numeric helpers shared by the bench sections.

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentiles of a sample (ms), rounded to `digits` decimals. */
export function percentiles(sample: number[], digits = 1): Percentiles {
  if (!sample.length) return { p50: NaN, p95: NaN, p99: NaN, max: NaN };
  const sorted = [...sample].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  return {
    p50: round(at(50), digits),
    p95: round(at(95), digits),
    p99: round(at(99), digits),
    max: round(sorted[sorted.length - 1], digits),
  };
}

export const mean = (sample: number[]): number =>
  sample.length ? sample.reduce((a, b) => a + b, 0) / sample.length : NaN;

/** A number for the table: fixed decimals, 'n/a' when it could not be measured. */
export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

/** "a / b" with one decimal, for ratios in the table ("12.3×"). */
export function ratio(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(1)}×` : 'n/a';
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items` at most `batch` at a time (logins, socket connections), keeping the order. */
export async function inBatches<T, R>(items: T[], fn: (item: T) => Promise<R>, batch = 50): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += batch)
    out.push(...(await Promise.all(items.slice(i, i + batch).map(fn))));
  return out;
}
