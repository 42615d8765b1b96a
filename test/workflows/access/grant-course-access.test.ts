import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { grantCourseAccess } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/** The grant workflow on the real server, with activities replaced by recording fakes. */
const taskQueue = uniqueTaskQueue('grant-wf');
const calls: { name: string; input: unknown }[] = [];
const invitedEmails = new Set<string>();

const fakeActivities: Partial<Activities> = {
  async webhookTargets() {
    return [];
  },
  async ensureParticipant(input) {
    calls.push({ name: 'ensureParticipant', input });
    return { participantId: `participant-of-${input.email}`, invited: invitedEmails.has(input.email), events: [] };
  },
  async sendInvitation(input) {
    calls.push({ name: 'sendInvitation', input });
    return { sent: true };
  },
  async applyCourseGrant(input) {
    calls.push({ name: 'applyCourseGrant', input });
    if (input.source.kind !== 'direct' || input.participant.email !== input.participant.id.replace('participant-of-', '')) throw new Error('unexpected input');
    if (input.courseId === 'gone') throw ApplicationFailure.nonRetryable('course gone', 'CourseNotFound');
    return {
      outcome: 'applied',
      accessLevel: input.accessLevel,
      events: [{ id: 'e1', type: 'access_granted', payload: { course: input.courseId }, occurredAt: '2026-01-01T00:00:00.000Z' }],
    };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);

const run = (email: string, courseId = 'c1') =>
  temporal.client().workflow.execute<typeof grantCourseAccess>('grantCourseAccess', {
    taskQueue,
    workflowId: `test/${randomUUID()}`,
    args: [{ platformId: 'p1', courseId, email, name: 'Ann', accessLevel: 1, seq: 1 }],
  });

const callsFor = (email: string) => calls.filter((c) => JSON.stringify(c.input).includes(email)).map((c) => c.name);

describe('grantCourseAccess workflow', () => {
  it('invites a new participant, then applies the grant', async () => {
    const result = await run('new@example.com');
    expect(callsFor('new@example.com')).toEqual(['ensureParticipant', 'sendInvitation', 'applyCourseGrant']);
    expect(result).toMatchObject({ participantId: 'participant-of-new@example.com', invitationSent: true, outcome: 'applied', accessLevel: 1 });
    expect(result.events.map((e) => e.type)).toEqual(['access_granted']);
  });

  it('does not invite a participant who was invited before', async () => {
    invitedEmails.add('known@example.com');
    const result = await run('known@example.com');
    expect(callsFor('known@example.com')).toEqual(['ensureParticipant', 'applyCourseGrant']);
    expect(result.invitationSent).toBe(false);
  });

  it('fails without retrying when the course is not the platform\'s', async () => {
    const error = await run('gone@example.com', 'gone').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(calls.filter((c) => c.name === 'applyCourseGrant' && JSON.stringify(c.input).includes('gone@example.com'))).toHaveLength(1);
  });
});
