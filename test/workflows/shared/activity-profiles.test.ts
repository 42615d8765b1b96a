import { msToNumber } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { SHOP_MAIL_CLAIM_MS } from '../../../activities/shop/shop-mail-send.ts';
import { ORDER_EFFECT } from '../../../workflows/shared/activity-profiles.ts';

/** The waits between a retry policy's attempts, all of them (the server's schedule, without jitter). */
function waitsOf(retry: { initialInterval?: string | number; backoffCoefficient?: number; maximumInterval?: string | number; maximumAttempts?: number }): number[] {
  const first = msToNumber(retry.initialInterval as string);
  const longest = msToNumber(retry.maximumInterval as string);
  return Array.from({ length: retry.maximumAttempts! - 1 }, (_, i) => Math.min(longest, first * retry.backoffCoefficient! ** i));
}

describe('the order effects\' retries', () => {
  it("outlast a mail's claim of an attempt lost with its worker, so a status mail waits for it instead of being given up", () => {
    if (ORDER_EFFECT.kind !== 'activity') throw new Error('ORDER_EFFECT is an activity profile');
    const waits = waitsOf(ORDER_EFFECT.options.retry as never);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(SHOP_MAIL_CLAIM_MS);
  });
});
