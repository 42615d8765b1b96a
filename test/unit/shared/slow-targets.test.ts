import { describe, expect, it } from 'vitest';
import { slowTargets } from '../../../activities/shared/slow-targets.ts';

/** A clock the test moves, and a call that ends when the test says. */
function setUp() {
  let now = 0;
  const slow = slowTargets({ slowMs: 1_000, coolDownMs: 60_000, now: () => now });
  const call = () => {
    let end!: () => void;
    const done = new Promise<void>((resolve) => (end = resolve));
    return { done, end };
  };
  return { slow, call, advance: (ms: number) => (now += ms) };
}

describe('slow targets', () => {
  it('are those with a call running longer than the bound, and only they', async () => {
    const { slow, call, advance } = setUp();
    const running = call();
    const timed = slow.timed('shop/webhook/a', () => running.done);
    advance(1_000);
    expect(slow.isSlow('shop/webhook/a')).toBe(false);
    advance(1);
    expect(slow.isSlow('shop/webhook/a')).toBe(true);
    expect(slow.isSlow('shop/webhook/b')).toBe(false);
    running.end();
    await timed;
  });

  it('stay slow for the cool-down after a slow call ended, then are tried again', async () => {
    const { slow, call, advance } = setUp();
    const running = call();
    const timed = slow.timed('t', () => running.done);
    advance(1_500);
    running.end();
    await timed;
    advance(59_999);
    expect(slow.isSlow('t')).toBe(true);
    advance(1);
    expect(slow.isSlow('t')).toBe(false);
  });

  it('are not marked by a call within the bound, nor by one that failed fast', async () => {
    const { slow, advance } = setUp();
    await slow.timed('t', async () => advance(1_000));
    await expect(slow.timed('t', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(slow.isSlow('t')).toBe(false);
    await expect(slow.timed('t', async () => (advance(1_001), Promise.reject(new Error('timed out'))))).rejects.toThrow('timed out');
    expect(slow.isSlow('t')).toBe(true);
  });
});
