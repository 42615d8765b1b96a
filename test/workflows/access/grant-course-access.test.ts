import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { GrantStep } from '../../../activities/access/grants.ts';
import { courseMailsWorkflowId, mailDeliveryWorkflowId, webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { grantAudiobookAccess, grantCourseAccess } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/** The grant workflows on the real server, with activities replaced by recording fakes. */
const taskQueue = uniqueTaskQueue('grant-wf');
const platformId = `p-${randomUUID()}`;
const calls: { name: string; input: { email?: string } }[] = [];
const delivered: string[] = [];
const opened: string[] = [];
const enrolmentMails: string[] = [];

/**
 * The step's answer by the e-mail's local part: `new`, `known`, `hooked`, `mails`, `gone` (`flaky-`/`refused-` prefixes: its
 * invitation's first attempt, made by the step, fails for now / for good; `old-`: a step result recorded before the step made
 * that attempt, without `invitationDelivery`).
 */
function stepFor(email: string): GrantStep | Omit<GrantStep, 'invitationDelivery'> {
  const local = email.split('@')[0]!;
  const kind = local.replace(/^(flaky|refused|old)-/, '').split('-')[0];
  if (kind === 'gone') throw ApplicationFailure.nonRetryable('course gone', 'CourseNotFound');
  const event = { id: `event-${email}`, type: 'access_granted' as const, payload: {}, occurredAt: '2026-01-01T00:00:00.000Z' };
  const invitationMailId = kind === 'known' ? null : `mail-of-${email}`;
  const step = {
    participantId: `participant-of-${email}`,
    created: kind !== 'known',
    invitationSent: kind !== 'known',
    invitationMailId,
    outcome: 'applied' as const,
    accessLevel: 1 as const,
    courseMails: kind === 'mails',
    events: [event],
    webhookDeliveries: kind === 'hooked' ? [{ webhookId: 'hook-a', eventId: event.id }] : [],
  };
  if (local.startsWith('old-')) return step;
  // The step's own attempt at the invitation counts as a delivery attempt.
  if (invitationMailId) delivered.push(invitationMailId);
  const invitationDelivery = !invitationMailId ? null : local.startsWith('refused-') ? 'refused' : local.startsWith('flaky-') ? 'retry' : 'sent';
  return { ...step, invitationDelivery };
}

const fakeActivities: Partial<Activities> = {
  async grantCourse(input) {
    calls.push({ name: 'grantCourse', input });
    return stepFor(input.email!) as GrantStep;
  },
  async grantAudiobook(input) {
    calls.push({ name: 'grantAudiobook', input });
    return stepFor(input.email!) as GrantStep;
  },
  async deliverMail({ mailId }) {
    delivered.push(mailId);
    // The mail of `flaky-...` fails its first attempt, the one of `refused-...` every attempt for good.
    if (mailId.includes('refused-')) throw ApplicationFailure.nonRetryable('provider refused', 'MailDeliveryRefused');
    if (mailId.includes('flaky-') && delivered.filter((id) => id === mailId).length === 1) throw ApplicationFailure.retryable('provider down', 'MailDeliveryFailed');
    return { status: 'sent', provider: null };
  },
  async openWebhookDelivery({ webhookId, eventId }) {
    opened.push(`${webhookId}/${eventId}`);
    return { deliveryId: `${webhookId}/${eventId}` };
  },
  async attemptWebhookDelivery() {
    return { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  async openAndAttemptWebhookDelivery({ webhookId, eventId }) {
    opened.push(`${webhookId}/${eventId}`);
    return { deliveryId: `${webhookId}/${eventId}`, status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  async planCourseMails({ participantId }) {
    enrolmentMails.push(participantId);
    return [];
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);

const grantCourse = (email: string) => {
  const workflowId = `test/${randomUUID()}`;
  return {
    workflowId,
    result: temporal.client().workflow.execute<typeof grantCourseAccess>('grantCourseAccess', {
      taskQueue,
      workflowId,
      args: [{ platformId, courseId: 'c1', email, name: 'Ann', accessLevel: 1, seq: 1 }],
    }),
  };
};

const eventTypes = async (workflowId: string) => {
  const history = await temporal.client().workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).map((e) => Object.keys(e).find((k) => k.endsWith('EventAttributes')));
};

const callsFor = (email: string) => calls.filter((c) => c.input.email === email).map((c) => c.name);

describe('grantCourseAccess workflow', () => {
  it('applies the whole grant and makes the invitation\'s first attempt in one local step: no activity task, no child', async () => {
    const email = 'new@example.com';
    const run = grantCourse(email);
    expect(await run.result).toMatchObject({ participantId: `participant-of-${email}`, invitationSent: true, outcome: 'applied', accessLevel: 1 });
    expect(callsFor(email)).toEqual(['grantCourse']);
    expect(delivered.filter((id) => id === `mail-of-${email}`)).toHaveLength(1);
    const types = await eventTypes(run.workflowId);
    // A local activity is a marker in the history: no activity task was queued for the grant.
    expect(types.filter((t) => t === 'markerRecordedEventAttributes')).toHaveLength(1);
    expect(types).not.toContain('activityTaskScheduledEventAttributes');
    expect(types).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
    expect(types.filter((t) => t === 'workflowTaskCompletedEventAttributes')).toHaveLength(1);
  });

  it('makes the invitation\'s first attempt in a local step of its own when the step\'s result lacks its outcome (an older step result)', async () => {
    const email = 'old-new@example.com';
    const run = grantCourse(email);
    expect(await run.result).toMatchObject({ invitationSent: true, outcome: 'applied' });
    expect(delivered.filter((id) => id === `mail-of-${email}`)).toHaveLength(1);
    const types = await eventTypes(run.workflowId);
    expect(types.filter((t) => t === 'markerRecordedEventAttributes')).toHaveLength(2);
    expect(types).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
  });

  it('hands an invitation whose first attempt failed to its delivery workflow, which retries it', async () => {
    const email = 'flaky-new@example.com';
    await grantCourse(email).result;
    const delivery = temporal.client().workflow.getHandle(mailDeliveryWorkflowId({ platformId, mailId: `mail-of-${email}` }));
    expect(await delivery.result()).toMatchObject({ status: 'sent' });
    expect(delivered.filter((id) => id === `mail-of-${email}`)).toHaveLength(2);
  });

  it('does not hand on an invitation the provider refused for good', async () => {
    const email = 'refused-new@example.com';
    const run = grantCourse(email);
    expect(await run.result).toMatchObject({ outcome: 'applied' });
    expect(await eventTypes(run.workflowId)).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
    expect(delivered.filter((id) => id === `mail-of-${email}`)).toHaveLength(1);
  });

  it('starts no child when there is nothing to deliver', async () => {
    const run = grantCourse('known@example.com');
    expect((await run.result).invitationSent).toBe(false);
    expect(await eventTypes(run.workflowId)).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
  });

  it('delivers to each webhook subscribed to the grant\'s events by its own first attempt: no delivery workflow when it succeeds', async () => {
    const email = 'hooked@example.com';
    await grantCourse(email).result;
    expect(opened).toEqual([`hook-a/event-${email}`]);
    const delivery = temporal.client().workflow.getHandle(webhookDeliveryWorkflowId({ platformId, webhookId: 'hook-a', eventId: `event-${email}` }));
    await expect(delivery.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('starts the course mails only when the step says the enrolment has some', async () => {
    await grantCourse('mails@example.com').result;
    const participantId = 'participant-of-mails@example.com';
    await temporal.client().workflow.getHandle(courseMailsWorkflowId({ platformId, courseId: 'c1', participantId })).result();
    expect(enrolmentMails).toEqual([participantId]);
  });

  it('fails without retrying when the course is not the platform\'s', async () => {
    const error = await grantCourse('gone@example.com').result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(callsFor('gone@example.com')).toEqual(['grantCourse']);
  });
});

describe('grantAudiobookAccess workflow', () => {
  it('applies the grant in one local step and hands the invitation on', async () => {
    const email = 'new-audio@example.com';
    const result = await temporal.client().workflow.execute<typeof grantAudiobookAccess>('grantAudiobookAccess', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ platformId, audiobookId: 'a1', email, seq: 1 }],
    });
    expect(result).toMatchObject({ participantId: `participant-of-${email}`, invitationSent: true, outcome: 'applied' });
    expect(callsFor(email)).toEqual(['grantAudiobook']);
    expect(delivered).toContain(`mail-of-${email}`);
  });
});
