/**
 * The runs `npm run histories:record` records (scripts/record-histories.ts): every long-running
 * workflow type driven through a meaningful part of its life (timers, activities, signals,
 * continue-as-new) on a real Temporal server, with fake activities. Replay never calls an activity
 * (their results are in the history), so fakes record a history the real activities could have
 * written; the replay test (test/workflows/replay.test.ts) runs the current workflow code over them.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Client, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { Activities } from '../../activities/index.ts';
import { fakeSubscribers } from './fake-subscribers.ts';
import { quietClearing } from './quiet-clearing.ts';
import {
  automaticStatusWorkflowId,
  clearOrderWorkflowId,
  clubWebhookWorkflowId,
  orderPlacedWorkflowId,
  orderStatusWorkflowId,
  mailSequenceWorkflowId,
  shopWebhookDeliveryWorkflowId,
  subscriberWorkflowId,
  timeLimitedDiscountWorkflowId,
} from '../../domain/shop/workflow-ids.ts';
import {
  accessCommandWorkflowId,
  courseMailRolloutWorkflowId,
  courseMailsWorkflowId,
  lessonCompletedWorkflowId,
  orderWorkflowId,
  webhookDeliveryWorkflowId,
} from '../../domain/shared/workflow-ids.ts';
import type * as workflows from '../../workflows/index.ts';
import { subscriberItemsChangedSignal, subscriberPausedSignal, subscriberPeriodMovedSignal, subscriberResumedSignal } from '../../workflows/shop/subscription-signals.ts';
import { discountChangedSignal, discountRemovedSignal, type DiscountSchedule } from '../../workflows/shop/time-limited-discount-signals.ts';

/** One recorded run: its workflow id, and how to drive it until its history is worth keeping. */
export interface Scenario {
  /** The workflow type; the histories file is `test/workflows/histories/<type>.json`. */
  type: keyof typeof workflows;
  name: string;
  /** Starts the workflow, drives it and returns its handle once it has ended. */
  run(ctx: ScenarioContext): Promise<WorkflowHandleWithFirstExecutionRunId>;
}

export interface ScenarioContext {
  client: Client;
  taskQueue: string;
}

const SHOP = '00000000-0000-4000-8000-00000000a001';
const PLATFORM = '00000000-0000-4000-8000-00000000b001';
const COURSE = '00000000-0000-4000-8000-00000000c001';
const PARTICIPANT = '00000000-0000-4000-8000-00000000d001';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const iso = (inMs: number) => new Date(Date.now() + inMs).toISOString();

// ---------------------------------------------------------------------------------------------
// Subscriber renewal: an in-memory subscriber the fake activities read and write, as the database.

const subscribers = fakeSubscribers();

/** Every activity the recorded workflows (and the children they start) call, as in-memory fakes. */
export const fakeActivities: Partial<Activities> = {
  ...subscribers.activities,
  // A renewal order's clearing and an automatic status's change run as children: nothing to do here.
  ...quietClearing,
  activateSubscriptions: async () => ({ outcome: { status: 'skipped', detail: 'a renewal order' }, subscriberIds: [], endedIds: [] }),

  // Mail sequence: four messages; the second is refused for good, the fourth finds the sequence off.
  async planMailSequence() {
    return [1, 2, 3, 4].map((itemId) => ({ itemId, sendAt: iso(itemId * 700) }));
  },
  async sendMailSequenceItem({ itemId }) {
    if (itemId === 2) throw ApplicationFailure.nonRetryable('the relay refused the recipient', 'MailDeliveryRefused');
    return itemId === 4 ? 'stopped' : 'sent';
  },

  // Course mails: a reinvitation, then two timed mails; each mail's delivery is a child.
  async sendCourseReinvitation() {
    return { sent: true, mailId: `mail-reinvitation-${Date.now()}` };
  },
  async planCourseMails() {
    return [
      { templateId: 'tpl-welcome', delayMs: 600 },
      { templateId: 'tpl-day-two', delayMs: 1500 },
    ];
  },
  async sendCourseMail({ templateId, participantId }) {
    return { sent: true, mailId: `mail-${templateId}-${participantId}` };
  },
  async courseMailRecipients() {
    return {
      lessonId: null,
      recipients: [
        { participantId: PARTICIPANT, delayMs: 0 },
        { participantId: '00000000-0000-4000-8000-00000000d002', delayMs: 800 },
      ],
    };
  },
  async recordLessonCompletionEvents({ platformId, participantId, lessonId, courseId }) {
    return { events: [{ id: `event-lesson-${lessonId}`, type: 'lesson_completed', occurredAt: new Date().toISOString(), payload: { platformId, participantId, lessonId, courseId } } as never] };
  },
  // Every event goes to one webhook: its first attempt inline, the retries in its delivery workflow.
  async webhookTargets({ types }) {
    return [{ webhookId: WEBHOOK, events: types }];
  },
  // Revokes, an order's cancellation and a quiz result: one event each, dispatched to that webhook.
  withdrawCourseAccess: async ({ email }) => ({ outcome: 'applied', accessLevel: null, events: [domainEvent('access_revoked', `course-${email}`)] }),
  withdrawAudiobookAccess: async ({ email }) => ({ outcome: 'applied', accessLevel: null, events: [domainEvent('access_revoked', `audiobook-${email}`)] }),
  withdrawOrderAccess: async ({ orderId }) => ({ events: [domainEvent('access_revoked', `order-${orderId}`)] }),
  recordQuizResultEvents: async ({ resultId }) => ({ events: [domainEvent('quiz_passed', `quiz-${resultId}`)] }),
  // A participant's erasure on the platform: one kind of data, then `participant_erased` dispatched.
  beginErasure: async () => ({ generation: 1, kinds: ['participant'] }),
  erasePersonalDataKind: async () => 2,
  recordParticipantErased: async ({ erasureId }) => [domainEvent('participant_erased', erasureId)],
  completeErasure: async () => ({ completed: true, counts: { participant: 2 } }),
  // A placed order at its New status (1), to be paid; the shop of SHOP_WITH_WEBHOOKS has one webhook on every order event, delivered at once.
  placingFacts: async () => ({ newStatusId: 1, needsNoClearing: false }),
  shopWebhookTargets: async ({ shopId }) => (shopId === SHOP_WITH_WEBHOOKS ? [{ webhookId: AT_ONCE_WEBHOOK, host: 'hooks.example.com' }] : []),
  async deliverMail({ mailId }) {
    // An invitation of `...flaky-...` fails its first attempt: the grant hands it to its delivery workflow.
    if (mailId.includes('flaky-') && !failedOnce.has(mailId)) {
      failedOnce.add(mailId);
      throw ApplicationFailure.retryable('the relay is down', 'MailDeliveryFailed');
    }
    return { status: 'sent', provider: null };
  },

  // Grants and an order's fulfilment: one local step each (a new participant, invited), then what it hands on.
  // The scenarios start their runs in the shape recorded before issue 41 item 3 (with the address), so the histories stay as committed.
  grantCourse: async ({ email = '', courseId }) => ({ ...onboarded(email, 'course', courseId), outcome: 'applied', accessLevel: 0, courseMails: email.startsWith('mails-') }),
  grantAudiobook: async ({ email = '', audiobookId }) => ({ ...onboarded(email, 'audiobook', audiobookId), outcome: 'applied', accessLevel: null }),
  async fulfilOrderAccess({ email = '', courses, orderId }) {
    return { ...onboarded(email, 'order', orderId), courses: courses.map(({ courseId }, i) => ({ courseId, courseMails: i === 0 })), fulfilled: true };
  },

  // Time-limited discount.
  applyDiscountPrices: async () => 3,
  restoreDiscountPrices: async () => 3,
  reapplyDiscountPrices: async () => 3,

  // Automatic status: the first timer applies (a change child), the second finds the order moved on.
  async applyAutomaticStatus({ toStatusId }) {
    return toStatusId === 4 ? { changeId: 41 } : null;
  },

  // Webhook delivery: two failed attempts waited out, then delivered.
  async openWebhookDelivery({ webhookId, eventId }) {
    return { deliveryId: `delivery-${webhookId}-${eventId}` };
  },
  async attemptWebhookDelivery({ deliveryId }) {
    return attemptOnce(deliveryId);
  },
  // First attempts made by the workflow that raised the event (DESIGN.md section 4, "Deliveries").
  async openAndAttemptWebhookDelivery({ webhookId, eventId }) {
    const deliveryId = `delivery-${webhookId}-${eventId}`;
    return { deliveryId, ...attemptOnce(deliveryId) };
  },
  async openShopWebhookDelivery({ webhookId, orderId }) {
    return { deliveryId: `shop-delivery-${webhookId}-${orderId}` };
  },
  async attemptShopWebhookDelivery({ deliveryId }) {
    return attemptOnce(deliveryId);
  },
  async openAndAttemptShopWebhookDelivery({ webhookId, orderId }) {
    const deliveryId = `shop-delivery-${webhookId}-${orderId}`;
    return { deliveryId, ...attemptOnce(deliveryId) };
  },
  // The order's webhook effect after the delivery (behind `shop-webhook-effect-outcome`): nothing to record here.
  recordShopWebhookOutcome: async () => null,

  // The clearing (workflows/shop/steps/clear-in-one-step.ts). Its one step opens two `order_cleared`
  // deliveries and hands the analytics purchase on. Not recorded: a step refused for good, whose
  // parts then run by concurrent local steps; that history does not replay on SDK 1.24 (the
  // local activities resolve in another order on replay; issue 38 item 3's report).
  // Recorded since `clearing-outside-one-activity`, this fake step opens the club webhook's delivery
  // too, and the first attempts and the analytics call are one activity: one delivery and the
  // club's need their workflows, and the analytics call its own retried activity.
  // Since `clearing-outside-local` the outside calls are a local activity; order 36's are all made
  // at once (the usual clearing: one workflow task).
  async clearOrderInOneStep({ orderId, events }) {
    if (orderId === CLEARED_AT_ONCE) {
      const delivery = { source: 'clear' as const, webhookId: AT_ONCE_WEBHOOK, type: 'order_cleared' as const, ...events.cleared, deliveryId: `shop-delivery-${AT_ONCE_WEBHOOK}-${orderId}` };
      return { deferred: [], handOn: ['status_mail' as const], deliveries: [delivery], club: null, courseAccess: {}, sequences: null, subscriptions: null, automaticStatuses: [] };
    }
    const deliveries = [AT_ONCE_WEBHOOK, WEBHOOK_TO_RETRY].map((webhookId) => ({ source: 'clear' as const, webhookId, type: 'order_cleared' as const, ...events.cleared, deliveryId: `shop-delivery-${webhookId}-${orderId}` }));
    return { deferred: [], handOn: ['analytics_purchase' as const], deliveries, club: { deliveryId: `club-delivery-${orderId}`, statusId: 2 }, courseAccess: {}, sequences: null, subscriptions: null, automaticStatuses: [] };
  },
  async sendClearingOutside({ handOn, deliveries, club }) {
    const left = [...deliveries, ...(club ? [club] : [])].flatMap(({ deliveryId }) => {
      const { nextAttemptInMs } = attemptOnce(deliveryId);
      return nextAttemptInMs === null ? [] : [{ deliveryId, nextAttemptInMs }];
    });
    // The analytics call fails a first time (its own activity makes it); the status mail goes at once.
    return { retry: handOn.filter((effect) => effect === 'analytics_purchase'), deliveries: left.filter(({ deliveryId }) => deliveryId !== club?.deliveryId), club: left.find(({ deliveryId }) => deliveryId === club?.deliveryId) ?? null };
  },
  attemptClubWebhookDelivery: async ({ deliveryId }) => attemptOnce(deliveryId),
  recordClubWebhookOutcome: async () => ({ status: 'done' as const, detail: 'club webhook delivered' }),
};

const failedOnce = new Set<string>();
const WEBHOOK = '00000000-0000-4000-8000-00000000f003';

/** A grant step's onboarding of a new participant: created, invited (the mail awaits delivery), one event with a webhook subscribed. */
function onboarded(email: string, kind: string, itemId: string) {
  const local = email.split('@')[0]!;
  const event = { id: `event-${kind}-${itemId}-${local}`, type: 'access_granted' as const, payload: {}, occurredAt: new Date().toISOString() };
  return {
    participantId: `participant-${local}`,
    created: true,
    invitationSent: true,
    invitationMailId: `mail-${local}`,
    // The step's own attempt at the invitation (activities/mail/delivery.ts attemptMailOnce): `...flaky-...` fails it.
    invitationDelivery: local.includes('flaky-') ? ('retry' as const) : ('sent' as const),
    events: [event],
    webhookDeliveries: [{ webhookId: WEBHOOK, eventId: event.id }],
  };
}

/** The order whose clearing's outside calls are all made at once. */
const CLEARED_AT_ONCE = 36;

/** A webhook whose deliveries succeed at their first attempt; every other one's fail twice first. */
const AT_ONCE_WEBHOOK = '00000000-0000-4000-8000-00000000f004';
const SHOP_WITH_WEBHOOKS = '00000000-0000-4000-8000-00000000a002';

/** A recorded domain event of the fake activities. */
function domainEvent(type: string, key: string) {
  return { id: `event-${type}-${key}`, type, payload: {}, occurredAt: new Date().toISOString() } as never;
}
const WEBHOOK_TO_RETRY = '00000000-0000-4000-8000-00000000f002';

const attempts = new Map<string, number>();
function attemptOnce(deliveryId: string) {
  if (deliveryId.includes(AT_ONCE_WEBHOOK)) return { status: 'succeeded' as const, statusCode: 204, nextAttemptInMs: null };
  const n = (attempts.get(deliveryId) ?? 0) + 1;
  attempts.set(deliveryId, n);
  if (n === 1) return { status: 'pending' as const, statusCode: 503, nextAttemptInMs: 500 };
  if (n === 2) return { status: 'pending' as const, statusCode: null, nextAttemptInMs: 900 };
  return { status: 'succeeded' as const, statusCode: 204, nextAttemptInMs: null };
}

const discountSchedule = (startInMs: number, endInMs: number, revision: number): DiscountSchedule => ({ startDate: iso(startInMs), endDate: iso(endInMs), revision });

export const scenarios: Scenario[] = [
  {
    type: 'grantCourseAccess',
    name: 'a new participant: the step, the invitation sent at its first attempt, a webhook delivery as a child',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, courseId: COURSE, email: 'ann@example.com', name: 'Ann', accessLevel: 0 as const, seq: 1 };
      const workflowId = accessCommandWorkflowId({ ...input, item: { kind: 'course', id: COURSE }, person: 'p'.repeat(64), command: 'grant' });
      const handle = await client.workflow.start<typeof workflows.grantCourseAccess>('grantCourseAccess', { taskQueue, workflowId, args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'grantCourseAccess',
    name: 'a new participant in a course with mails: the invitation\'s first attempt fails and goes to its delivery workflow; the course mails and a webhook delivery as children',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, courseId: COURSE, email: 'mails-flaky-bo@example.com', name: null, accessLevel: 1 as const, seq: 2 };
      const workflowId = accessCommandWorkflowId({ ...input, item: { kind: 'course', id: COURSE }, person: 'p'.repeat(64), command: 'grant' });
      const handle = await client.workflow.start<typeof workflows.grantCourseAccess>('grantCourseAccess', { taskQueue, workflowId, args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'grantAudiobookAccess',
    name: 'a new participant: the step, the invitation sent at its first attempt, a webhook delivery as a child',
    async run({ client, taskQueue }) {
      const audiobookId = '00000000-0000-4000-8000-00000000e001';
      const input = { platformId: PLATFORM, audiobookId, email: 'cy@example.com', name: null, seq: 3 };
      const workflowId = accessCommandWorkflowId({ ...input, item: { kind: 'audiobook', id: audiobookId }, person: 'p'.repeat(64), command: 'grant' });
      const handle = await client.workflow.start<typeof workflows.grantAudiobookAccess>('grantAudiobookAccess', { taskQueue, workflowId, args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'fulfilOrder',
    name: 'two courses for a new participant: the step, the invitation sent at its first attempt, the first course\'s mails and a webhook delivery as children',
    async run({ client, taskQueue }) {
      const orderId = '00000000-0000-4000-8000-00000000e101';
      const courses = [
        { courseId: COURSE, accessLevel: 0 as const },
        { courseId: '00000000-0000-4000-8000-00000000c002', accessLevel: 1 as const },
      ];
      const input = { platformId: PLATFORM, orderId, email: 'dee@example.com', courses, seq: 4 };
      const handle = await client.workflow.start<typeof workflows.fulfilOrder>('fulfilOrder', { taskQueue, workflowId: orderWorkflowId({ platformId: PLATFORM, orderId, step: 'fulfil' }), args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'subscriberRenewal',
    name: 'activation mail, both reminders, pause and resume, a declined charge with its notice, the dunning retry approved, the renewal order cleared as a child, continue-as-new; the next run: period moved, items changed, declined twice, expired',
    async run({ client, taskQueue }) {
      const subscriberId = subscribers.add(
        {
          intervalMs: 6000,
          period: { start: Date.now(), end: Date.now() + 8000 },
          reminders: ['expires_in_one_week', 'expires_in_one_day'],
          reminderOffsetsMs: { expires_in_one_week: 5000, expires_in_one_day: 2500 },
          dunningMs: [1000],
          gateway: ['decline', 'approve', 'decline', 'decline'],
        },
        1,
      );
      const handle = await client.workflow.start<typeof workflows.subscriberRenewal>('subscriberRenewal', {
        taskQueue,
        workflowId: subscriberWorkflowId({ shopId: SHOP, subscriberId }),
        args: [{ shopId: SHOP, subscriberId, activated: true }],
      });
      const s = subscribers.get(subscriberId);
      const loaded = async (n: number) => {
        while (s.loads < n) await sleep(50);
      };
      // Each signal once the run has read the schedule again (the API writes, then signals).
      await loaded(1);
      s.paused = true;
      await handle.signal(subscriberPausedSignal);
      await loaded(2);
      s.paused = false;
      await handle.signal(subscriberResumedSignal);
      await loaded(3);
      // The second run (after the renewal): its period end moves, its items change.
      while (s.renewalsDone === 0) await sleep(50);
      const afterRenewal = s.loads;
      await loaded(afterRenewal + 1);
      s.period = { ...s.period, end: s.period.end + 1000 };
      await handle.signal(subscriberPeriodMovedSignal, { activeUntil: new Date(s.period.end).toISOString() });
      await loaded(afterRenewal + 2);
      await handle.signal(subscriberItemsChangedSignal);
      await handle.result();
      return handle;
    },
  },
  {
    type: 'subscriberRenewal',
    name: 'a shop without a gateway: the renewal order placed once (its placing a child), unpaid through the dunning days, expired',
    async run({ client, taskQueue }) {
      const subscriberId = subscribers.add({ intervalMs: 300, gatewayAfter: 'none', dunningMs: [500, 700] }, 2);
      const handle = await client.workflow.start<typeof workflows.subscriberRenewal>('subscriberRenewal', {
        taskQueue,
        workflowId: subscriberWorkflowId({ shopId: SHOP, subscriberId }),
        args: [{ shopId: SHOP, subscriberId, activated: false }],
      });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'mailSequence',
    name: 'four messages at their instants: sent, refused for good (listed as failed), sent, stopped',
    async run({ client, taskQueue }) {
      const recipient = { hash: 'a'.repeat(64), row: { kind: 'order' as const, orderId: 31 } };
      const run = { shopId: SHOP, sequenceId: 7, recipient, trigger: { kind: 'order_status' as const, statusId: 2, orderId: 31 }, triggeredAt: new Date().toISOString() };
      const workflowId = mailSequenceWorkflowId({ ...run, recipient: recipient.hash });
      const handle = await client.workflow.start<typeof workflows.mailSequence>('mailSequence', { taskQueue, workflowId, args: [run] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'courseEnrolmentMails',
    name: 'reinvitation, then two timed course mails, each delivery a child',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, courseId: COURSE, participantId: PARTICIPANT, existingParticipant: true };
      const handle = await client.workflow.start<typeof workflows.courseEnrolmentMails>('courseEnrolmentMails', { taskQueue, workflowId: courseMailsWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'lessonCompleted',
    name: 'the completion event dispatched (its first attempt inline, the retries in its delivery workflow), then the lesson\'s two timed course mails',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, courseId: COURSE, participantId: PARTICIPANT, lessonId: '00000000-0000-4000-8000-00000000e001' };
      const handle = await client.workflow.start<typeof workflows.lessonCompleted>('lessonCompleted', { taskQueue, workflowId: lessonCompletedWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'courseMailRollout',
    name: 'a timed mail rolled out to two participants, the second after its delay',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, courseId: COURSE, templateId: 'tpl-welcome', notifyPrevious: true, revision: '1' };
      const handle = await client.workflow.start<typeof workflows.courseMailRollout>('courseMailRollout', {
        taskQueue,
        workflowId: courseMailRolloutWorkflowId(input),
        args: [input],
      });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'timeLimitedDiscount',
    name: 'waits for the start, applies, a change inside the window re-applies, a stale signal is ignored, restores at the end',
    async run({ client, taskQueue }) {
      const ref = { shopId: SHOP, discountId: 11 };
      const handle = await client.workflow.start<typeof workflows.timeLimitedDiscount>('timeLimitedDiscount', {
        taskQueue,
        workflowId: timeLimitedDiscountWorkflowId(ref),
        args: [{ ...ref, schedule: discountSchedule(800, 3500, 1) }],
      });
      await sleep(1500);
      const changed = discountSchedule(-1000, 3000, 2);
      await handle.signal(discountChangedSignal, changed);
      await sleep(300);
      await handle.signal(discountChangedSignal, { ...changed, revision: 1 });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'timeLimitedDiscount',
    name: 'applied, then removed: restores and ends',
    async run({ client, taskQueue }) {
      const ref = { shopId: SHOP, discountId: 12 };
      const handle = await client.workflow.start<typeof workflows.timeLimitedDiscount>('timeLimitedDiscount', {
        taskQueue,
        workflowId: timeLimitedDiscountWorkflowId(ref),
        args: [{ ...ref, schedule: discountSchedule(0, 60_000, 1) }],
      });
      await sleep(800);
      await handle.signal(discountRemovedSignal);
      await handle.result();
      return handle;
    },
  },
  {
    type: 'automaticOrderStatus',
    name: 'sleeps until due, applies the status and starts its change as a child',
    async run({ client, taskQueue }) {
      const input = { shopId: SHOP, orderId: 31, fromStatusId: 2, expectedChangeId: 40, toStatusId: 4, dueAt: iso(1000) };
      const handle = await client.workflow.start<typeof workflows.automaticOrderStatus>('automaticOrderStatus', {
        taskQueue,
        workflowId: automaticStatusWorkflowId({ shopId: SHOP, orderId: 31, source: 'status:40', toStatusId: 4 }),
        args: [input],
      });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'automaticOrderStatus',
    name: 'sleeps until due, finds the order moved on, ends without a change',
    async run({ client, taskQueue }) {
      const input = { shopId: SHOP, orderId: 32, fromStatusId: 2, expectedChangeId: 50, toStatusId: 5, dueAt: iso(700) };
      const handle = await client.workflow.start<typeof workflows.automaticOrderStatus>('automaticOrderStatus', {
        taskQueue,
        workflowId: automaticStatusWorkflowId({ shopId: SHOP, orderId: 32, source: 'status:50', toStatusId: 5 }),
        args: [input],
      });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'deliverWebhook',
    name: 'opened, two failed attempts each waited out, delivered at the third',
    async run({ client, taskQueue }) {
      const input = { platformId: PLATFORM, webhookId: '00000000-0000-4000-8000-00000000f001', eventId: '00000000-0000-4000-8000-00000000f101' };
      const handle = await client.workflow.start<typeof workflows.deliverWebhook>('deliverWebhook', { taskQueue, workflowId: webhookDeliveryWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'deliverWebhook',
    name: 'after the first attempt the raising workflow made: waits what it asked, one failed attempt waited out, delivered at the next',
    async run({ client, taskQueue }) {
      const pair = { platformId: PLATFORM, webhookId: '00000000-0000-4000-8000-00000000f001', eventId: '00000000-0000-4000-8000-00000000f103' };
      const deliveryId = `delivery-${pair.webhookId}-${pair.eventId}`;
      attempts.set(deliveryId, 1);
      const input = { ...pair, deliveryId, nextAttemptInMs: 500 };
      const handle = await client.workflow.start<typeof workflows.deliverWebhook>('deliverWebhook', { taskQueue, workflowId: webhookDeliveryWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  clearing('a clearing: the one step opens two deliveries and the club webhook\'s and hands the analytics on; the outside calls (a local activity) deliver one at its first attempt, hand the other and the club\'s to their delivery workflows and the analytics to its own activity', SHOP, 35),
  clearing('a clearing whose outside calls are all made at once (a delivery\'s first attempt, the status mail): one workflow task', SHOP, CLEARED_AT_ONCE),
  {
    type: 'deliverShopWebhook',
    name: 'the shop\'s delivery: opened with the event, two failed attempts waited out, delivered at the third',
    async run({ client, taskQueue }) {
      const input = {
        shopId: SHOP,
        orderId: 31,
        source: 'clear' as const,
        webhookId: '00000000-0000-4000-8000-00000000f002',
        type: 'order_cleared' as const,
        eventId: '00000000-0000-4000-8000-00000000f102',
        occurredAt: new Date().toISOString(),
      };
      const handle = await client.workflow.start<typeof workflows.deliverShopWebhook>('deliverShopWebhook', { taskQueue, workflowId: shopWebhookDeliveryWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  ...[
    { type: 'revokeCourseAccess' as const, args: { platformId: PLATFORM, courseId: COURSE, email: 'ann@example.com', seq: 5 } },
    { type: 'revokeAudiobookAccess' as const, args: { platformId: PLATFORM, audiobookId: '00000000-0000-4000-8000-00000000e001', email: 'cy@example.com', seq: 6 } },
    { type: 'cancelOrder' as const, args: { platformId: PLATFORM, orderId: '00000000-0000-4000-8000-00000000e101' } },
    { type: 'quizResultRecorded' as const, args: { platformId: PLATFORM, resultId: '00000000-0000-4000-8000-00000000e201' } },
  ].map(({ type, args }): Scenario => ({
    type,
    name: 'the step, then its event\'s delivery: the first attempt inline, the retries in its delivery workflow',
    async run({ client, taskQueue }) {
      const handle = await client.workflow.start(type, { taskQueue, workflowId: `history/${type}/${args.platformId}`, args: [args] });
      await handle.result();
      return handle;
    },
  })),
  {
    type: 'erasePersonalData',
    name: 'a participant erased: the data, then its event\'s delivery: the first attempt inline, the retries in its delivery workflow',
    async run({ client, taskQueue }) {
      const ref = { tenant: 'platform' as const, tenantId: PLATFORM, erasureId: '00000000-0000-4000-8000-00000000e301' };
      const handle = await client.workflow.start<typeof workflows.erasePersonalData>('erasePersonalData', { taskQueue, workflowId: `history/erasePersonalData/${ref.erasureId}`, args: [ref] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'changeOrderStatus',
    name: 'a status change with every effect skipped but one shop webhook, delivered at its inline first attempt',
    async run({ client, taskQueue }) {
      const input = { shopId: SHOP_WITH_WEBHOOKS, orderId: 40, changeId: 400, statusId: 3 };
      const handle = await client.workflow.start<typeof workflows.changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: orderStatusWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  {
    type: 'orderPlaced',
    name: 'a placed order at its New status: every effect skipped but one shop webhook, delivered at its inline first attempt',
    async run({ client, taskQueue }) {
      const input = { shopId: SHOP_WITH_WEBHOOKS, orderId: 41 };
      const handle = await client.workflow.start<typeof workflows.orderPlaced>('orderPlaced', { taskQueue, workflowId: orderPlacedWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  },
  shopDelivery('the shop\'s delivery the clearing\'s step opened: attempted first, two failed attempts waited out, delivered at the third', 37, {}),
  shopDelivery('the shop\'s delivery after the first attempt the raising workflow made: waits what it asked, one failed attempt waited out, delivered at the next', 38, { nextAttemptInMs: 500 }),
  clubDelivery('the club webhook\'s delivery a status change opened: two failed attempts waited out, delivered at the third', 39, {}),
  clubDelivery('the club webhook\'s delivery after the clearing\'s first attempt: waits what it asked, one failed attempt waited out, delivered at the next', 40, { nextAttemptInMs: 500 }),
];

/** A clearing of the order (workflows/shop/clear-order.ts) with the fakes above. */
function clearing(name: string, shopId: string, orderId: number): Scenario {
  return {
    type: 'clearOrder',
    name,
    async run({ client, taskQueue }) {
      const input = { shopId, orderId };
      const handle = await client.workflow.start<typeof workflows.clearOrder>('clearOrder', { taskQueue, workflowId: clearOrderWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  };
}

/** The club webhook's delivery (workflows/shop/club-webhook.ts); with `nextAttemptInMs` its first attempt was made. */
function clubDelivery(name: string, orderId: number, first: { nextAttemptInMs?: number }): Scenario {
  return {
    type: 'deliverClubWebhook',
    name,
    async run({ client, taskQueue }) {
      const deliveryId = `club-delivery-${orderId}`;
      if (first.nextAttemptInMs !== undefined) attempts.set(deliveryId, 1);
      const handle = await client.workflow.start<typeof workflows.deliverClubWebhook>('deliverClubWebhook', { taskQueue, workflowId: clubWebhookWorkflowId({ shopId: SHOP, orderId, statusId: 2 }), args: [{ shopId: SHOP, deliveryId, ...first }] });
      await handle.result();
      return handle;
    },
  };
}

/** A shop delivery opened before its workflow (with `deliveryId`); with `nextAttemptInMs` its first attempt was made too. */
function shopDelivery(name: string, orderId: number, first: { nextAttemptInMs?: number }): Scenario {
  return {
    type: 'deliverShopWebhook',
    name,
    async run({ client, taskQueue }) {
      const webhookId = WEBHOOK_TO_RETRY;
      const deliveryId = `shop-delivery-${webhookId}-${orderId}`;
      if (first.nextAttemptInMs !== undefined) attempts.set(deliveryId, 1);
      const input = { shopId: SHOP, orderId, source: 'clear' as const, webhookId, type: 'order_cleared' as const, eventId: `00000000-0000-4000-8000-0000000${orderId}102`, occurredAt: new Date().toISOString(), deliveryId, ...first };
      const handle = await client.workflow.start<typeof workflows.deliverShopWebhook>('deliverShopWebhook', { taskQueue, workflowId: shopWebhookDeliveryWorkflowId(input), args: [input] });
      await handle.result();
      return handle;
    },
  };
}
