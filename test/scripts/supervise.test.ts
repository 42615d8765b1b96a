/**
 * Issue 16, item 3: `npm start` restarts a process that dies (stack/supervise.ts), with a growing
 * backoff and a log line, and stop() stops it for good. Real child processes, short delays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, sleep } from '../../scripts/stack/lifecycle.ts';
import { backoffDelay, spawnIncarnation, supervise, type Supervised } from '../../scripts/stack/supervise.ts';

const backoff = { initialMs: 100, maxMs: 400, stableAfterMs: 60_000 };
let running: Supervised | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const node = (script: string) => () => spawnIncarnation('probe', process.execPath, ['-e', script]);

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

describe('supervise', () => {
  it('doubles the delay up to the maximum', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(backoff, n))).toEqual([100, 200, 400, 400, 400]);
  });

  it('restarts a process that keeps dying, waiting longer each time, and says so', async () => {
    const lines: string[] = [];
    const starts: number[] = [];
    running = await supervise(
      'dier',
      () => {
        starts.push(Date.now());
        return node('setTimeout(() => process.exit(3), 20)')();
      },
      { log: (line) => lines.push(line), backoff },
    );
    await until(() => starts.length >= 5);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // Each gap is the delay plus the process's short life: 100, 200, 400, 400 ms and a little.
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(gaps[3]).toBeGreaterThanOrEqual(400);
    expect(gaps[3]).toBeLessThan(400 + 3_000);
    expect(lines.slice(0, 4)).toEqual([
      'dier exited unexpectedly (code 3): restarting in 0.1 s',
      expect.stringMatching(/^dier restarted \(pid \d+\), restart 1$/),
      'dier exited unexpectedly (code 3): restarting in 0.2 s',
      expect.stringMatching(/^dier restarted \(pid \d+\), restart 2$/),
    ]);
    expect(running.restarts).toBeGreaterThanOrEqual(4);
  });

  it('restarts a SIGKILLed process; stop() then stops it and nothing comes back', async () => {
    const lines: string[] = [];
    running = await supervise('sleeper', node('setInterval(() => {}, 1000)'), { log: (line) => lines.push(line), backoff });
    const first = running.current()!.pid!;
    process.kill(first, 'SIGKILL');
    await until(() => running!.current() !== null && running!.current()!.pid !== first);
    expect(lines[0]).toBe('sleeper exited unexpectedly (SIGKILL): restarting in 0.1 s');
    const second = running.current()!.pid!;
    expect(isAlive(second)).toBe(true);

    // stop() resolves once the restart loop has returned: nothing can start after it.
    await running.stop();
    expect(isAlive(second)).toBe(false);
    expect(running.current()?.pid).toBe(second); // no new incarnation after stop
    expect(lines.filter((l) => l.includes('restarted'))).toHaveLength(1);
    running = undefined;
  });

  it('stop() during the backoff cancels the pending restart', async () => {
    const lines: string[] = [];
    let starts = 0;
    const quitter = node('process.exit(1)');
    const start = () => {
      starts += 1;
      return quitter();
    };
    running = await supervise('quitter', start, { log: (line) => lines.push(line), backoff: { ...backoff, initialMs: 120_000, maxMs: 120_000 } });
    await until(() => lines.length === 1);
    const started = Date.now();
    // stop() resolves once the restart loop has returned (nothing can start after it), long before the two-minute backoff.
    await running.stop();
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(starts).toBe(1);
    expect(lines).toEqual(['quitter exited unexpectedly (code 1): restarting in 120.0 s']);
    running = undefined;
  });
});
