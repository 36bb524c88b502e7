/** Small statistics helpers: nearest-rank percentiles, medians of runs, readable numbers. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const min = (values: readonly number[]): number => Math.min(...values);
export const max = (values: readonly number[]): number => Math.max(...values);

export interface Distribution {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

export function distribution(values: readonly number[]): Distribution {
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), min: min(values), max: max(values) };
}

export const round = (value: number, digits = 1): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export const ms = (value: number): string => (Number.isFinite(value) ? `${value >= 100 ? Math.round(value) : round(value, 1)} ms` : 'n/a');
export const pct = (fraction: number): string => (Number.isFinite(fraction) ? `${round(fraction * 100, 1)}%` : 'n/a');
export const kib = (bytes: number): string => `${round(bytes / 1024, 1)} KiB`;
export const int = (value: number): string => Math.round(value).toLocaleString('en-US');

export const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
