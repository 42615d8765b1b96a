/**
 * A closed-loop load generator: `concurrency` lanes each run `op` back to back until the time is
 * up or `maxOps` operations were issued. Used in the main thread (raw SQL) and in the HTTP load
 * thread (http-load-thread.ts).
 */
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  concurrency: number;
  /** No operation starts after this many milliseconds. */
  durationMs: number;
  /** No more than this many operations in all (default: unbounded, only the time limits). */
  maxOps?: number;
  /** One operation; `index` counts from 0 in the order operations start. Throws on failure. */
  op: (index: number) => Promise<void>;
}

export interface LoadResult {
  /** Operations that succeeded, and their latencies in milliseconds (completion order). */
  ok: number;
  latenciesMs: number[];
  errors: number;
  firstError: string | null;
  /** From the first start to the last completion. */
  elapsedMs: number;
}

export async function closedLoop({ concurrency, durationMs, maxOps = Number.POSITIVE_INFINITY, op }: LoadOptions): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let issued = 0;
  let errors = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const deadline = started + durationMs;

  async function lane(): Promise<void> {
    while (issued < maxOps && performance.now() < deadline) {
      const index = issued++;
      const t0 = performance.now();
      try {
        await op(index);
        latenciesMs.push(performance.now() - t0);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  }

  await Promise.all(Array.from({ length: concurrency }, lane));
  return { ok: latenciesMs.length, latenciesMs, errors, firstError, elapsedMs: performance.now() - started };
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable between threads. */
export const epochMs = (): number => performance.timeOrigin + performance.now();
