/**
 * A worker killed (SIGKILL) in the middle of a webhook delivery: the attempt is retried by another
 * worker with the same `webhook-id` (the event id), within one delivery and one workflow; no second
 * delivery with a new id appears.
 */
import { describe, expect, it } from 'vitest';
import { platformPrefix, webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { CONFIGURATION, createConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, uniqueEmail } from '../../helpers/fixtures.ts';
import { eventually } from '../../helpers/stack.ts';
import { useWorkerHandover } from '../../helpers/worker-handover.ts';

const handover = useWorkerHandover('e2e-webhook-durability');

describe('a worker killed during a delivery', () => {
  it('is retried by another worker with the same webhook-id, in the same delivery, recorded once', async () => {
    const { stack, receiver } = handover;
    const platform = await createPlatform(stack.app, 'Durable hooks');
    const course = await createCourse(stack.app, platform.id);
    const { token } = await createConfigurationKey(stack.app, platform.id);
    // The first request never gets an answer: the worker is killed while it waits.
    receiver.on('/durable', (_r, n) => (n === 1 ? 'hang' : { status: 200 }));
    const created = await stack.app.inject({
      method: 'POST',
      url: `${CONFIGURATION}/webhooks`,
      headers: { 'x-api-key': token, 'content-type': 'application/json' },
      payload: { name: 'durable', url: receiver.url('/durable'), events: ['user_registered'], secret_key: 'durable-secret' },
    });
    expect(created.statusCode).toBe(201);
    const webhookId = created.json().data.id;

    const firstWorker = await handover.startFirst();
    const grant = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': platform.apiKey },
      payload: { subscriptions: { course_id: course.id, email: uniqueEmail() } },
    });
    expect(grant.statusCode).toBe(200);
    await eventually(async () => expect(receiver.requests('/durable')).toHaveLength(1), { timeoutMs: 30_000 });
    await firstWorker.kill('SIGKILL');

    await handover.startSecond();
    await eventually(async () => expect(receiver.requests('/durable')).toHaveLength(2), { timeoutMs: 30_000 });

    const [first, second] = receiver.requests('/durable');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);

    const delivery = await eventually(async () => {
      const res = await stack.app.inject({ method: 'GET', url: `${CONFIGURATION}/webhooks/${webhookId}/deliveries`, headers: { 'x-api-key': token } });
      const data = res.json().data;
      expect(data).toHaveLength(1);
      expect(data[0].status).toBe('succeeded');
      return data[0];
    });
    expect(delivery.event_id).toBe(first!.headers['webhook-id']);
    // The first attempt is the grant's own activity (DESIGN.md section 4, "Deliveries"), retried on
    // the second worker. Finding the killed attempt's claim still held (10 s), it sends nothing and
    // hands the delivery to its one delivery workflow, which sends once the claim ran out; on a slow
    // machine the claim may have run out already and the retried activity sends itself.
    const workflowId = webhookDeliveryWorkflowId({ platformId: platform.id, webhookId, eventId: delivery.event_id });
    const deliveryWorkflows: string[] = [];
    for await (const execution of stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "${platformPrefix(platform.id)}/webhook/"` })) deliveryWorkflows.push(execution.workflowId);
    expect([[], [workflowId]]).toContainEqual(deliveryWorkflows);
    if (deliveryWorkflows.length > 0) expect(await stack.temporal.workflow.getHandle(workflowId).result()).toEqual({ deliveryId: delivery.id, status: 'succeeded' });
    const [{ n }]: any[] = await stack.orm.em.fork().getConnection().execute('select count(*)::int as n from webhook_deliveries where webhook_id = ?', [webhookId]);
    expect(n).toBe(1);
  });
});
