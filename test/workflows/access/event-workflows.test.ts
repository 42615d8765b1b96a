import { WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { RecordedDomainEvent } from '../../../domain/shared/events.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { quizResultRecorded, revokeAudiobookAccess } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';
import { commandsOf, starter } from '../../helpers/workflow-commands.ts';

/**
 * Two workflows of one step and its events (issue 42 item 6), with fake activities: an audiobook's
 * revoke and a reported quiz result. The step records the events; the dispatch then starts one
 * delivery per (event, subscribed webhook), and the workflow answers the step's result.
 */
const taskQueue = uniqueTaskQueue('access-events-wf');
const platformId = `p-${randomUUID()}`;
const calls: string[] = [];
const event = (id: string, type: RecordedDomainEvent['type']): RecordedDomainEvent => ({ id, type, occurredAt: '2026-01-01T00:00:00.000Z' });

const fakeActivities: Partial<Activities> = {
  async withdrawAudiobookAccess({ audiobookId, email, seq }) {
    calls.push(`withdrawAudiobookAccess ${audiobookId} ${email} ${seq}`);
    return audiobookId === 'not-held'
      ? { outcome: 'not_enrolled', accessLevel: null, events: [] }
      : { outcome: 'applied', accessLevel: null, events: [event(`revoked-${seq}`, 'access_revoked')] };
  },
  async recordQuizResultEvents({ resultId }) {
    calls.push(`recordQuizResultEvents ${resultId}`);
    return { events: resultId === 'failed' ? [] : [event(`quiz-${resultId}`, 'quiz_passed')] };
  },
  async webhookTargets({ types }) {
    calls.push(`webhookTargets ${types.join(',')}`);
    return [
      { webhookId: 'hook-all', events: ['access_revoked', 'quiz_passed'] },
      { webhookId: 'hook-quiz', events: ['quiz_passed'] },
    ];
  },
  async openWebhookDelivery({ webhookId, eventId }) {
    return { deliveryId: `${webhookId}/${eventId}` };
  },
  async attemptWebhookDelivery() {
    return { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  async openAndAttemptWebhookDelivery({ webhookId, eventId }) {
    calls.push(`delivered ${webhookId}/${eventId}`);
    return { deliveryId: `${webhookId}/${eventId}`, status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
const run = starter(temporal.client, taskQueue);
const delivery = (webhookId: string, eventId: string) => webhookDeliveryWorkflowId({ platformId, webhookId, eventId });

describe('revokeAudiobookAccess', () => {
  it('withdraws the access, then delivers access_revoked to the webhooks subscribed to it, and answers the change', async () => {
    const handle = await run<typeof revokeAudiobookAccess>('revokeAudiobookAccess', [{ platformId, audiobookId: 'a1', email: 'ann@example.com', seq: 7 }]);
    expect(await handle.result()).toEqual({ outcome: 'applied', accessLevel: null, events: [event('revoked-7', 'access_revoked')] });
    // The delivery's first attempt is the workflow's own; delivered at once, it needs no workflow of its own.
    expect(await commandsOf(handle)).toEqual(['activity withdrawAudiobookAccess', 'activity webhookTargets', 'activity openAndAttemptWebhookDelivery']);
    expect(calls).toContain('delivered hook-all/revoked-7');
    await expect(temporal.client().workflow.getHandle(delivery('hook-all', 'revoked-7')).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('with nothing withdrawn (no events) asks for no webhook', async () => {
    const handle = await run<typeof revokeAudiobookAccess>('revokeAudiobookAccess', [{ platformId, audiobookId: 'not-held', email: 'bob@example.com', seq: 8 }]);
    expect(await handle.result()).toEqual({ outcome: 'not_enrolled', accessLevel: null, events: [] });
    expect(await commandsOf(handle)).toEqual(['activity withdrawAudiobookAccess']);
  });
});

describe('quizResultRecorded', () => {
  it('records quiz_passed and delivers it to each subscribed webhook', async () => {
    const handle = await run<typeof quizResultRecorded>('quizResultRecorded', [{ platformId, resultId: 'r1' }]);
    expect(await handle.result()).toEqual({ events: [event('quiz-r1', 'quiz_passed')] });
    const commands = await commandsOf(handle);
    expect(commands.slice(0, 2)).toEqual(['activity recordQuizResultEvents', 'activity webhookTargets']);
    // The two deliveries start together: in either order.
    expect(commands.slice(2)).toEqual(['activity openAndAttemptWebhookDelivery', 'activity openAndAttemptWebhookDelivery']);
    expect(calls.filter((c) => c.startsWith('delivered') && c.endsWith('/quiz-r1')).sort()).toEqual(['delivered hook-all/quiz-r1', 'delivered hook-quiz/quiz-r1']);
    expect(calls).toContain('webhookTargets quiz_passed');
  });

  it('a failed quiz records no event and delivers nothing', async () => {
    const handle = await run<typeof quizResultRecorded>('quizResultRecorded', [{ platformId, resultId: 'failed' }]);
    expect(await handle.result()).toEqual({ events: [] });
    expect(await commandsOf(handle)).toEqual(['activity recordQuizResultEvents']);
  });
});
