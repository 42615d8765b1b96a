/**
 * Load generators, used in the main thread (raw SQL, workflow starts) and in the HTTP load thread
 * (http-load-thread.ts):
 * - closed loop: `concurrency` lanes each run `op` back to back until the time is up or `maxOps`
 *   operations were issued;
 * - open loop: `op` started on a fixed schedule, `ratePerSecond`, whatever the replies; latencies
 *   count from the scheduled start, so a stalled server shows in them (no coordinated omission).
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.ts';

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

export interface OpenLoopOptions {
  ratePerSecond: number;
  /** Operations in all; operation i is due at i / ratePerSecond seconds. */
  count: number;
  /** One operation; `scheduledEpochMs` is when it was due. Throws on failure. */
  op: (index: number, scheduledEpochMs: number) => Promise<void>;
}

export interface OpenLoopResult extends LoadResult {
  /** Epoch ms each operation was due, by index. */
  scheduledEpochMs: number[];
  /** How late the operations started against their schedule (the generator's own lag), p99 in ms. */
  startLagP99Ms: number;
}

export async function openLoop({ ratePerSecond, count, op }: OpenLoopOptions): Promise<OpenLoopResult> {
  if (!(ratePerSecond > 0)) throw new RangeError(`ratePerSecond must be positive, got ${ratePerSecond}`);
  const latenciesMs: number[] = [];
  const scheduledEpochMs: number[] = [];
  const lags: number[] = [];
  const running: Promise<void>[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const intervalMs = 1000 / ratePerSecond;

  for (let index = 0; index < count; index++) {
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    lags.push(Math.max(0, performance.now() - due));
    const dueEpochMs = performance.timeOrigin + due;
    scheduledEpochMs[index] = dueEpochMs;
    running.push(
      op(index, dueEpochMs).then(
        () => void latenciesMs.push(performance.now() - due),
        (error: unknown) => {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      ),
    );
  }
  await Promise.all(running);
  return { ok: latenciesMs.length, latenciesMs, errors, firstError, elapsedMs: performance.now() - started, scheduledEpochMs, startLagP99Ms: percentile(lags, 99) };
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable between threads. */
export const epochMs = (): number => performance.timeOrigin + performance.now();
