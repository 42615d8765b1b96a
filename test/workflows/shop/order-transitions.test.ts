import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import type { changeOrderStatus, clearOrder } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/** The order workflows on the real server, with their effect activities replaced by fakes. */
const taskQueue = uniqueTaskQueue('shop-order-wf');
const calls = new Map<string, number>();
const recorded: { effect: string; outcome: EffectOutcome; source: string }[] = [];
const mailed: { source: string; statusId: number | null }[] = [];
const order: string[] = [];
const count = (name: string) => {
  order.push(name);
  return calls.set(name, (calls.get(name) ?? 0) + 1).get(name)!;
};
const ok = (detail: string): EffectOutcome => ({ status: 'done', detail });

// No club integration, automatic status, mail sequence or subscription product, a status that stops
// nothing (their own tests: club-webhook, automatic-status, mail-sequence, e2e order-lifecycle).
const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  async issueInvoice() {
    count('invoice');
    return ok('FV/2026/1');
  },
  async createDownloadCodes() {
    // Fails twice, then succeeds: retried on its own.
    if (count('download_codes') < 3) throw new Error('storage hiccup');
    return ok('2 download codes');
  },
  async sendAnalyticsPurchase() {
    count('analytics');
    throw ApplicationFailure.nonRetryable('analytics refused the event', 'AnalyticsRefused');
  },
  async tagCustomer() {
    count('marketing');
    return ok('customer');
  },
  async sendStatusMail({ source, statusId }) {
    count('status_mail');
    mailed.push({ source, statusId });
    return ok('mail to buyer@example.com sent');
  },
  // No shop webhook subscribed: the webhook effect is skipped (test/workflows/shop/webhooks.test.ts has them).
  async shopWebhookTargets() {
    return [];
  },
  // No product sells courses: the course_access effect is skipped (test/workflows/shop/course-access.test.ts has the rest).
  async registerCourseAccessOrder() {
    return { outcome: { status: 'skipped', detail: 'no product of this order sells courses' } };
  },
  async cancelCourseAccessOrder() {
    return { outcome: { status: 'skipped', detail: 'this status does not withdraw course access' } };
  },
  async recordOrderEffect({ effect, outcome, source }) {
    recorded.push({ effect, outcome, source });
  },
};
const temporal = useFakeWorker(taskQueue, fakeActivities);

describe('clearOrder', () => {
  it('runs every effect once, retries a failing one alone, and records one that gives up as failed', async () => {
    await temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId: 's1', orderId: 7 }] });
    expect(calls.get('invoice')).toBe(1);
    expect(calls.get('marketing')).toBe(1);
    expect(calls.get('download_codes')).toBe(3);
    expect(calls.get('analytics')).toBe(1);
    const failed = recorded.find((r) => r.effect === 'analytics_purchase');
    expect(failed).toMatchObject({ source: 'clear', outcome: { status: 'failed', detail: 'analytics refused the event' } });
    expect(recorded.filter((r) => r.outcome.status === 'skipped').map((r) => r.effect).sort()).toEqual(['club_webhook', 'course_access', 'mail_sequence', 'subscription', 'webhook', 'webhook']);
    // The Paid status's effects (issue 22): its mail once, under their own source, written after the download codes exist.
    expect(mailed).toEqual([{ source: 'clear:paid', statusId: null }]);
    expect(order.lastIndexOf('download_codes')).toBeLessThan(order.indexOf('status_mail'));
    expect(recorded.filter((r) => r.effect === 'webhook').map((r) => r.source).sort()).toEqual(['clear', 'clear:paid']);
  });
});

describe('changeOrderStatus', () => {
  it('sends the status mail under the change\'s own source and records the hook points', async () => {
    recorded.length = 0;
    mailed.length = 0;
    await temporal
      .client()
      .workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId: 's1', orderId: 7, changeId: 42, statusId: 3 }] });
    expect(calls.get('status_mail')).toBe(2);
    expect(mailed).toEqual([{ source: 'status:42', statusId: 3 }]);
    expect(recorded.map((r) => r.source)).toEqual(['status:42', 'status:42', 'status:42', 'status:42']);
    expect(recorded.map((r) => r.effect).sort()).toEqual(['club_webhook', 'course_access', 'mail_sequence', 'webhook']);
  });
});
