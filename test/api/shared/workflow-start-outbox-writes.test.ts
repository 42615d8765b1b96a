import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../api/app.ts';
import type { Orm } from '../../../db/orm.ts';
import { orderPlacedWorkflowId, subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { createConfigurationKey, configure, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, operator, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertSubscriber } from '../../helpers/shop-subscribers.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';
import type { TcpSwitch } from '../../helpers/tcp-switch.ts';
import { appBehindTemporalSwitch } from '../../helpers/temporal-behind-switch.ts';

// Issue 41 item 2, the remaining writes: with the api's link to Temporal cut, each write answers its
// normal 2xx (a keyed retry replays it, making nothing new); what it started is recorded and runs,
// once, when the link is back. No worker serves the app's task queue: a started workflow stays
// RUNNING (or holds its signals), which is what the test looks at through its own client.
let orm: Orm;
let app: App;
let link: TcpSwitch;
let direct: Client;
let shop: TestShop;
let platform: TestPlatform;
let course: TestCourse;
let key: TestConfigurationKey;
let productId: number;
let planId: number;
let started: Set<string>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ link, direct, orm, app, started, close } = await appBehindTemporalSwitch('outbox-writes'));
  shop = await createTestShop(app, 'outbox-writes');
  productId = await insertProduct(orm, shop.id, { name: 'Book', price: '40.00' });
  planId = (await app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: shop.headers(), payload: { subscription_plan: { name: 'Monthly' } } })).json().data.id;
  const sequenceId = (
    await adminPost(app, `/admin/v1/shops/${shop.id}/email_sequences`, { name: 'Welcome', items: [{ email: { subject: 'Hi', content: '<p>hi</p>' }, offset_amount: 1, offset_unit: 'days' }] })
  ).id as number;
  const trigger = await app.inject({ method: 'PATCH', url: `/api/v1/configuration/email_sequences/${sequenceId}`, headers: shop.headers(), payload: { triggers: { newsletter_subscription: true } } });
  expect(trigger.statusCode, trigger.body).toBe(200);
  platform = await createPlatform(app, 'Outbox academy');
  course = await createCourse(app, platform.id);
  key = await createConfigurationKey(app, platform.id);
});
afterAll(() => close());

const sql = <T>(query: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(query, params);
/** The pending starts of a workflow type whose id (or request) holds `needle`. */
const pending = (type: string, needle: string) =>
  sql<{ workflow_id: string }>("select workflow_id from pending_workflow_starts where workflow_type = ? and (workflow_id like ? or request::text like ?) order by id", [
    type,
    `%${needle}%`,
    `%${needle}%`,
  ]).then((rows) => rows.map((r) => r.workflow_id));

/** A participant with active access to `course` (as a finished grant leaves it: no worker runs here). */
async function enrolledLearner(): Promise<{ email: string; participantId: string }> {
  const email = uniqueEmail();
  const [participant] = await sql<{ id: string }>('insert into participants (id, platform_id, email, created_at) values (gen_random_uuid(), ?, ?, now()) returning id', [platform.id, email]);
  await sql('insert into enrolments (id, platform_id, participant_id, course_id, access_level, active, started_at, updated_at) values (gen_random_uuid(), ?, ?, ?, 1, true, now(), now())', [
    platform.id,
    participant!.id,
    course.id,
  ]);
  return { email, participantId: participant!.id };
}

const registerAccessOrder = () =>
  app.inject({ method: 'POST', url: '/api/orders', headers: { 'x-api-key': platform.apiKey }, payload: { order: { external_id: randomUUID(), email: uniqueEmail('buyer'), ordered_contents: [{ course_ids: [course.id] }] } } });

/** The names of the signals a run received. */
async function signalsOf(workflowId: string): Promise<string[]> {
  const history = await direct.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => (event.workflowExecutionSignaledEventAttributes ? [event.workflowExecutionSignaledEventAttributes.signalName!] : []));
}

const days = (n: number) => new Date(Date.now() + n * 86_400_000);

interface Write {
  /** Sends the write (with `headers` added: an Idempotency-Key for a keyed one). */
  send(headers: Record<string, string>): Promise<LightMyRequestResponse>;
  /** What its start is found by among the pending starts: the workflow type and a part of its id or request. */
  start(res: LightMyRequestResponse): { type: string; needle: string; except?: Set<string> };
  /** That it ran, once, after the link is back (default: the workflow exists). */
  ran?(workflowId: string): Promise<void>;
}

/**
 * Each converted write: its status while Temporal is cut, and whether its interface takes an
 * Idempotency-Key (the shop API and the configuration interface do).
 */
const writes: [string, number, boolean, () => Promise<Write>][] = [
  [
    'PATCH /api/v1/orders/:id/status (changeOrderStatus)',
    200,
    true,
    async () => {
      const orderId = (await adminPost(app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }] })).id as number;
      return {
        send: (headers) => app.inject({ method: 'PATCH', url: `/api/v1/orders/${orderId}/status`, headers: { ...shop.headers(), ...headers }, payload: { order_status_id: shop.statuses.Sent } }),
        start: () => ({ type: 'changeOrderStatus', needle: `/order/${orderId}/status/` }),
      };
    },
  ],
  [
    'POST /admin/v1/shops/:id/orders at a zero total (orderPlaced, recorded by the placing statement)',
    201,
    false,
    async () => {
      const free = await insertProduct(orm, shop.id, { name: 'Leaflet', price: '0.00' });
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: { email: uniqueEmail('buyer'), items: [{ product_id: free, quantity: 1 }] } }),
        start: (res) => ({ type: 'orderPlaced', needle: orderPlacedWorkflowId({ shopId: shop.id, orderId: res.json().data.id }) }),
      };
    },
  ],
  [
    'PATCH /api/v1/subscribers/:id (subscriber signals)',
    200,
    true,
    async () => {
      const id = await insertSubscriber(orm, shop.id, { planId, periods: [{ startsAt: days(-10), endsAt: days(20) }] });
      // A run with the subscriber's id and no worker: the signals land in its history.
      const workflowId = subscriberWorkflowId({ shopId: shop.id, subscriberId: id });
      await direct.workflow.start('subscriberRenewalListener', { taskQueue: uniqueTaskQueue('subscriber-signals'), workflowId, args: [] });
      started.add(workflowId);
      return {
        send: (headers) => app.inject({ method: 'PATCH', url: `/api/v1/subscribers/${id}`, headers: { ...shop.headers('write_subscriptions'), ...headers }, payload: { renewal_paused: true } }),
        start: () => ({ type: 'subscriberRenewal', needle: workflowId }),
        ran: async () => expect(await signalsOf(workflowId)).toEqual(['subscriberPaused']),
      };
    },
  ],
  [
    'PATCH /api/v1/subscribers/:id/period reactivating (subscriberPeriodMoved restart)',
    200,
    true,
    async () => {
      const id = await insertSubscriber(orm, shop.id, { planId, status: 'expired', periods: [{ startsAt: days(-40), endsAt: days(-10) }] });
      const activeUntil = days(15).toISOString();
      return {
        send: (headers) =>
          app.inject({ method: 'PATCH', url: `/api/v1/subscribers/${id}/period`, headers: { ...shop.headers('write_subscriptions'), ...headers }, payload: { active_until: activeUntil } }),
        start: () => ({ type: 'subscriberRenewal', needle: subscriberWorkflowId({ shopId: shop.id, subscriberId: id }) }),
      };
    },
  ],
  [
    'POST /admin/v1/shops/:id/newsletter_subscribers (mail sequences)',
    201,
    false,
    async () => {
      const email = uniqueEmail('reader');
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/newsletter_subscribers`, headers: operator, payload: { email } }),
        start: (res) => ({ type: 'mailSequence', needle: `"subscriberId": ${res.json().data.id}` }),
      };
    },
  ],
  [
    'POST /admin/v1/shops/:id/webhooks/:id/deliveries/:id/redeliver (redeliverShopWebhook)',
    202,
    false,
    async () => {
      const webhookId = (await adminPost(app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/x', events: ['order_cleared'], secret_key: 'secret-0123456789abcdef' })).id as string;
      const [delivery] = await sql<{ id: string }>(
        `insert into shop_webhook_deliveries (id, shop_id, webhook_id, event_id, event_key, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, gen_random_uuid(), ?, 'order_cleared', '{"order": {"id": 1}}'::jsonb, now(), 'failed', 1, clock_timestamp(), clock_timestamp()) returning id`,
        [shop.id, webhookId, `order/1/${randomUUID()}`],
      );
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhooks/${webhookId}/deliveries/${delivery!.id}/redeliver`, headers: operator }),
        start: () => ({ type: 'redeliverShopWebhook', needle: delivery!.id }),
      };
    },
  ],
  [
    'POST /admin/v1/shops/:id/customers/erase (erasure, signal-with-start)',
    202,
    false,
    async () => {
      const email = uniqueEmail('erased');
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/customers/erase`, headers: operator, payload: { email } }),
        start: (res) => ({ type: 'erasePersonalData', needle: res.json().data.workflow_id }),
      };
    },
  ],
  [
    'POST /api/courses/subscribe (grant: started at once, recorded when refused)',
    200,
    false,
    async () => ({
      send: () => app.inject({ method: 'POST', url: '/api/courses/subscribe', headers: { 'x-api-key': platform.apiKey }, payload: { subscriptions: { course_id: course.id, email: uniqueEmail() } } }),
      start: (res) => ({ type: 'grantCourseAccess', needle: res.json().workflow_ids[0] }),
    }),
  ],
  [
    'POST /api/orders (fulfilOrder)',
    201,
    false,
    async () => ({
      send: registerAccessOrder,
      start: (res) => ({ type: 'fulfilOrder', needle: `/order/${res.json().id}/fulfil` }),
    }),
  ],
  [
    'DELETE /api/orders/:id (cancelOrder)',
    200,
    false,
    async () => {
      const order = await registerAccessOrder();
      expect(order.statusCode, order.body).toBe(201);
      const { id } = order.json();
      return {
        send: () => app.inject({ method: 'DELETE', url: `/api/orders/${id}`, headers: { 'x-api-key': platform.apiKey } }),
        start: () => ({ type: 'cancelOrder', needle: `/order/${id}/cancel` }),
      };
    },
  ],
  [
    'POST /admin/v1/platforms/:id/lesson_completions (lessonCompleted)',
    201,
    false,
    async () => {
      const { email, participantId } = await enrolledLearner();
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/lesson_completions`, headers: operator, payload: { email, lesson_id: course.sections[0]!.lessons[0]!.id } }),
        start: () => ({ type: 'lessonCompleted', needle: `/participant/${participantId}/completed` }),
      };
    },
  ],
  [
    'POST /admin/v1/platforms/:id/quiz_results (quizResultRecorded)',
    201,
    false,
    async () => {
      const { email } = await enrolledLearner();
      return {
        send: () =>
          app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/quiz_results`, headers: operator, payload: { email, lesson_id: course.sections[0]!.lessons[0]!.id, score: 9, passed: true } }),
        start: (res) => ({ type: 'quizResultRecorded', needle: `/quiz-result/${res.json().data.id}` }),
      };
    },
  ],
  [
    'POST /admin/v1/platforms/:id/participants/reinvite (login-link mail: started at once, recorded when refused)',
    202,
    false,
    async () => {
      const { email, participantId } = await enrolledLearner();
      return {
        send: () => app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/participants/reinvite`, headers: operator, payload: { email } }),
        start: () => ({ type: 'mailLoginLink', needle: `/participant/${participantId}/` }),
      };
    },
  ],
  [
    'POST /api/v1/configuration/courses/:id/email_templates (course mail rollout)',
    201,
    true,
    async () => {
      const subject = `Rollout ${randomUUID()}`;
      const known = new Set(await pending('courseMailRollout', course.id));
      return {
        send: (headers) =>
          configure(app, 'POST', `/courses/${course.id}/email_templates`, key.token, { subject, description: '<p>Hi</p>', active: true, send_after: 3, notify_previous_users: true }, headers),
        start: () => ({ type: 'courseMailRollout', needle: course.id, except: known }),
      };
    },
  ],
  [
    'POST /api/v1/configuration/email_templates/:slug/send_test (test mail: started at once, recorded when refused)',
    202,
    true,
    async () => {
      const known = new Set(await pending('sendTestMail', `"to": "admin@${platform.subdomain}.test"`));
      return {
        send: (headers) => configure(app, 'POST', '/email_templates/user_reinvitation/send_test', key.token, { email: `admin@${platform.subdomain}.test` }, headers),
        start: () => ({ type: 'sendTestMail', needle: `"to": "admin@${platform.subdomain}.test"`, except: known }),
      };
    },
  ],
];

describe('Temporal unreachable when a write commits', () => {
  it.each(writes)('%s answers %i; its workflow runs once Temporal is back', async (_name, status, keyed, prepare) => {
    const write = await prepare();
    const headers: Record<string, string> = keyed ? { 'idempotency-key': randomUUID() } : {};
    link.cut();
    let ids: string[];
    try {
      const first = await write.send(headers);
      expect(first.statusCode, first.body).toBe(status);
      const { type, needle, except } = write.start(first);
      ids = (await pending(type, needle)).filter((id) => !except?.has(id));
      expect(ids.length, `${type} ${needle}`).toBeGreaterThan(0);
      if (keyed) {
        const retry = await write.send(headers);
        expect(retry.statusCode).toBe(status);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toBe(first.body);
        expect((await pending(type, needle)).filter((id) => !except?.has(id))).toEqual(ids);
      }
      for (const id of ids) started.add(id);
    } finally {
      link.restore();
    }
    for (const id of new Set(ids)) {
      await eventually(async () => expect(await sql('select id from pending_workflow_starts where workflow_id = ?', [id])).toEqual([]), { timeoutMs: 30_000 });
      if (write.ran) await write.ran(id);
      else await direct.workflow.getHandle(id).describe();
    }
  });
});

describe('the reactivation start (a restart: a run begun before the write is terminated)', () => {
  /** A reactivation recorded while Temporal is cut: the subscriber's workflow id and its outbox row as the write left it. */
  async function reactivationRecorded(): Promise<{ workflowId: string; row: { id: string; task_queue: string; workflow_type: string; request: unknown } }> {
    const id = await insertSubscriber(orm, shop.id, { planId, status: 'expired', periods: [{ startsAt: days(-40), endsAt: days(-10) }] });
    const workflowId = subscriberWorkflowId({ shopId: shop.id, subscriberId: id });
    started.add(workflowId);
    link.cut();
    try {
      const res = await app.inject({ method: 'PATCH', url: `/api/v1/subscribers/${id}/period`, headers: shop.headers('write_subscriptions'), payload: { active_until: days(15).toISOString() } });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await sql<{ id: string; task_queue: string; workflow_type: string; request: unknown }>('select id, task_queue, workflow_type, request from pending_workflow_starts where workflow_id = ?', [workflowId]);
      expect(row).toBeDefined();
      return { workflowId, row: row! };
    } finally {
      link.restore();
    }
  }
  const sentOut = (workflowId: string) => eventually(async () => expect(await sql('select id from pending_workflow_starts where workflow_id = ?', [workflowId])).toEqual([]), { timeoutMs: 30_000 });
  /** The row once more, as a dispatcher that died after Temporal took it leaves it (nothing when it is still pending). */
  const resend = (workflowId: string, row: Awaited<ReturnType<typeof reactivationRecorded>>['row']) =>
    sql("insert into pending_workflow_starts (id, task_queue, workflow_type, workflow_id, request, recorded_at, next_attempt_at) values (?, ?, ?, ?, ?::jsonb, clock_timestamp(), clock_timestamp()) on conflict (id) do nothing", [
      row.id,
      row.task_queue,
      row.workflow_type,
      workflowId,
      JSON.stringify(row.request),
    ]);

  it('sent again after it landed (a dispatcher that died before forgetting it), it keeps the run it started', async () => {
    const { workflowId, row } = await reactivationRecorded();
    await sentOut(workflowId);
    const first = await direct.workflow.getHandle(workflowId).describe();
    expect(first.type).toBe('subscriberRenewal');

    await resend(workflowId, row);
    await sentOut(workflowId);
    const after = await direct.workflow.getHandle(workflowId).describe();
    expect(after.runId).toBe(first.runId);
    expect(after.status.name).toBe('RUNNING');
  });

  it('replaces a run it did not start, also one begun after the write (it may have read the row before the commit)', async () => {
    const { workflowId, row } = await reactivationRecorded();
    // Begun after the row was recorded, before it is sent: a run that saw the old status.
    const old = await direct.workflow.start('subscriberRenewalListener', { taskQueue: uniqueTaskQueue('old-run'), workflowId, args: [], workflowIdConflictPolicy: 'TERMINATE_EXISTING' });
    await resend(workflowId, row);
    await sentOut(workflowId);
    const now = await direct.workflow.getHandle(workflowId).describe();
    expect(now.type).toBe('subscriberRenewal');
    expect(now.runId).not.toBe(old.firstExecutionRunId);
    expect((await direct.workflow.getHandle(workflowId, old.firstExecutionRunId).describe()).status.name).toBe('TERMINATED');
  });
});
