import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { automaticStatusWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { orderPlaced, sendOrderStatusTestMails } from '../../../workflows/index.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';
import { commandsOf, starter } from '../../helpers/workflow-commands.ts';

/**
 * Two shop workflows with fake activities (issue 42 item 6): a placed order (the New status's own
 * effects, its automatic statuses and, at a zero total, first the fulfilment a clearing would give)
 * and an operator's status test mails. No webhook, club or sequence here (quietClearing).
 */
const taskQueue = uniqueTaskQueue('shop-order-placed-wf');
const shopId = `s-${randomUUID()}`;
const ZERO_TOTAL = 2;
const calls: string[] = [];
const recorded: { orderId: number; effect: string; outcome: EffectOutcome }[] = [];
const done = (detail: string): EffectOutcome => ({ status: 'done', detail });
const dueInAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const NEW_STATUS = 1;

const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  async placingFacts({ orderId }) {
    calls.push(`placingFacts ${orderId}`);
    return { newStatusId: NEW_STATUS, needsNoClearing: orderId === ZERO_TOTAL };
  },
  async sendStatusMail({ orderId, statusId, source }) {
    calls.push(`sendStatusMail ${orderId} ${statusId} ${source}`);
    return done('mail to buyer@example.com sent');
  },
  async planAutomaticStatuses({ orderId, source }) {
    calls.push(`planAutomaticStatuses ${orderId} ${source}`);
    return orderId === ZERO_TOTAL ? [] : [{ fromStatusId: 1, expectedChangeId: null, toStatusId: 4, dueAt: dueInAnHour() }];
  },
  async recordOrderEffect({ orderId, effect, outcome, source }) {
    expect(source).toBe('placed');
    recorded.push({ orderId, effect, outcome });
  },
  createDownloadCodes: async () => done('2 codes'),
  tagCustomer: async () => done('tagged'),
  registerCourseAccessOrder: async () => ({ outcome: { status: 'skipped', detail: 'no course products' } }),
  activateSubscriptions: async () => ({ outcome: { status: 'skipped', detail: 'no subscription plan' }, subscriberIds: [], endedIds: [] }),
  async sendStatusTestMail({ statusId, key, to }) {
    calls.push(`sendStatusTestMail ${statusId} ${key} ${to}`);
    if (statusId === 3 && calls.filter((c) => c.startsWith('sendStatusTestMail 3 ')).length === 1) throw new Error('relay unreachable');
    return { status: 'sent' };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
const run = starter(temporal.client, taskQueue);
const timer = automaticStatusWorkflowId({ shopId, orderId: 1, source: 'placed', toStatusId: 4 });
afterAll(async () => {
  // The automatic status's timer workflow waits an hour: it ends with the file.
  await temporal.client().workflow.getHandle(timer).terminate('test over').catch(() => undefined);
});

describe('orderPlaced', () => {
  /** The New status's own effects and the automatic statuses, started together (workflows/shop/steps/status-effects.ts). */
  const placingEffects = ['activity sendStatusMail', 'activity shopWebhookTargets', 'activity openClubWebhookDelivery', 'activity orderMailSequences', 'activity planAutomaticStatuses'];

  it('an order with a total: the confirmation (New\'s own effects) beside its automatic statuses (one timer workflow each); nothing fulfilled', async () => {
    const handle = await run<typeof orderPlaced>('orderPlaced', [{ shopId, orderId: 1 }]);
    await handle.result();
    const commands = await commandsOf(handle);
    expect(commands.slice(0, 1 + placingEffects.length)).toEqual(['activity placingFacts', ...placingEffects]);
    expect(commands).toContain(`child automaticOrderStatus ${timer}`);
    expect(calls).toEqual(expect.arrayContaining(['placingFacts 1', `sendStatusMail 1 ${NEW_STATUS} placed`, 'planAutomaticStatuses 1 placed']));
    expect((await temporal.client().workflow.getHandle(timer).describe()).status.name).toBe('RUNNING');
    // Each hook point once in the effect log (the mail records its own in its activity).
    expect(recorded.filter((r) => r.orderId === 1).map((r) => r.effect).sort()).toEqual(['club_webhook', 'mail_sequence', 'webhook']);
  });

  it('a zero-total order: first the paid effects that make sense at 0.00 (no invoice, no purchase event), then the confirmation with its links', async () => {
    const handle = await run<typeof orderPlaced>('orderPlaced', [{ shopId, orderId: ZERO_TOTAL }]);
    await handle.result();
    const commands = await commandsOf(handle);
    expect(commands[0]).toBe('activity placingFacts');
    // The fulfilment's effects start together; each records its outcome; the New mail comes after them.
    const mailAt = commands.indexOf('activity sendStatusMail');
    expect(commands.slice(1, mailAt).filter((c) => c !== 'activity recordOrderEffect').sort()).toEqual([
      'activity activateSubscriptions',
      'activity createDownloadCodes',
      'activity registerCourseAccessOrder',
      'activity tagCustomer',
    ]);
    expect(commands.slice(mailAt, mailAt + placingEffects.length)).toEqual(placingEffects);
    expect(recorded.filter((r) => r.orderId === ZERO_TOTAL && ['analytics_purchase', 'course_access', 'invoice', 'subscription'].includes(r.effect)).sort((a, b) => a.effect.localeCompare(b.effect))).toEqual([
      { orderId: ZERO_TOTAL, effect: 'analytics_purchase', outcome: { status: 'skipped', detail: 'a zero-total order: no purchase event' } },
      { orderId: ZERO_TOTAL, effect: 'course_access', outcome: { status: 'skipped', detail: 'no course products' } },
      { orderId: ZERO_TOTAL, effect: 'invoice', outcome: { status: 'skipped', detail: 'a zero-total order: no invoice' } },
      { orderId: ZERO_TOTAL, effect: 'subscription', outcome: { status: 'skipped', detail: 'no subscription plan' } },
    ]);
  });
});

describe('sendOrderStatusTestMails', () => {
  it('sends one test mail per status, in the order asked, each retried on its own, keyed by the request', async () => {
    const handle = await run<typeof sendOrderStatusTestMails>('sendOrderStatusTestMails', [
      { shopId, requestId: 'req-1', statusIds: [5, 3, 7], orderId: null, to: 'owner@example.com', downloadBase: 'https://shop.example.com' },
    ]);
    await handle.result();
    expect(await commandsOf(handle)).toEqual(['activity sendStatusTestMail', 'activity sendStatusTestMail', 'activity sendStatusTestMail']);
    expect(calls.filter((c) => c.startsWith('sendStatusTestMail'))).toEqual([
      'sendStatusTestMail 5 test/req-1/5 owner@example.com',
      'sendStatusTestMail 3 test/req-1/3 owner@example.com',
      'sendStatusTestMail 3 test/req-1/3 owner@example.com',
      'sendStatusTestMail 7 test/req-1/7 owner@example.com',
    ]);
  });
});
