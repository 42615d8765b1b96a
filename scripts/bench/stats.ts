/** Pure statistics for the benchmark: percentiles of latencies, medians across rounds. */

/**
 * The p-th percentile (0..100) of `values` by linear interpolation between closest ranks (the
 * method of numpy's default and most spreadsheets). NaN for an empty list.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const low = sorted[lower]!;
  const high = sorted[upper]!;
  return low + (high - low) * (rank - lower);
}

/** The median (50th percentile); NaN for an empty list. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
}

/** Count, p50 and p99 of a list of latencies. */
export function summarize(latencies: readonly number[]): LatencySummary {
  return { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** A batch of work measured one by one and as a whole (grants, no-op workflows). */
export interface BatchFigures {
  n: number;
  concurrency: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** Medians over a sample of the batch's workflow histories. */
  breakdown_ms: Record<string, number>;
}

/** Rounds to `digits` decimals (for the report); NaN and infinities become null (valid JSON). */
export function round(value: number, digits = 1): number | null {
  if (!Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Every number in `value` (deeply) rounded for the `bench` line: 3 decimals under 10 (ratios), else 1; NaN -> null. */
export function rounded(value: unknown): unknown {
  if (typeof value === 'number') return round(value, Math.abs(value) < 10 ? 3 : 1);
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}
