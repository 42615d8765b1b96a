import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import { mailDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { courseMailRollout, mailDelivery, mailLoginLink, sendTestMail } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';
import { commandsOf, starter } from '../../helpers/workflow-commands.ts';

/**
 * The mail workflows of the course platform with fake activities (issue 42 item 6): the operator's
 * login-link mail, a template's test mail, a timed mail's rollout and one mail's delivery. Each
 * records its mail, then hands it to its own delivery workflow (`mailDelivery`, by mail id).
 */
const taskQueue = uniqueTaskQueue('access-mail-wf');
const platformId = `p-${randomUUID()}`;
/** What the fakes were asked, in order. */
const calls: string[] = [];
/** Mails the fakes record as already sent (no mail id: nothing to deliver). */
const unsent = new Set<string>();

const fakeActivities: Partial<Activities> = {
  async sendLoginLinkMail({ participantId, template }) {
    calls.push(`sendLoginLinkMail ${template} ${participantId}`);
    const mailId = `login-${participantId}`;
    return unsent.has(participantId) ? { sent: false, mailId: null } : { sent: true, mailId };
  },
  async sendTestMail({ slug, to }) {
    calls.push(`sendTestMail ${slug} ${to}`);
    return { sent: true, mailId: `test-${slug}` };
  },
  async courseMailRecipients({ templateId }) {
    calls.push(`courseMailRecipients ${templateId}`);
    return {
      lessonId: 'lesson-1',
      recipients: [
        { participantId: 'due-now', delayMs: 0 },
        { participantId: 'due-later', delayMs: 300 },
        { participantId: 'owed-none', delayMs: 300 },
      ],
    };
  },
  async sendCourseMail({ participantId, lessonId }) {
    calls.push(`sendCourseMail ${participantId} ${lessonId}`);
    return participantId === 'owed-none' ? { sent: false, mailId: null } : { sent: true, mailId: `course-${participantId}` };
  },
  async deliverMail({ mailId }) {
    calls.push(`deliverMail ${mailId}`);
    if (mailId === 'flaky' && calls.filter((c) => c === 'deliverMail flaky').length < 3) throw new Error('relay unreachable');
    return { status: 'sent', provider: null };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
const run = starter(temporal.client, taskQueue);
const delivery = (mailId: string) => mailDeliveryWorkflowId({ platformId, mailId });
const deliveredOnce = async (mailId: string) => {
  expect(await temporal.client().workflow.getHandle(delivery(mailId)).result()).toEqual({ status: 'sent', provider: null });
  expect(calls.filter((c) => c === `deliverMail ${mailId}`)).toHaveLength(1);
};

describe('mailLoginLink', () => {
  it('records the mail, then starts its delivery and answers sent without waiting for it', async () => {
    const handle = await run<typeof mailLoginLink>('mailLoginLink', [{ platformId, participantId: 'ann', template: 'user_reinvitation', requestId: 'r1' }]);
    expect(await handle.result()).toEqual({ sent: true });
    expect(await commandsOf(handle)).toEqual(['activity sendLoginLinkMail', `child mailDelivery ${delivery('login-ann')}`]);
    await deliveredOnce('login-ann');
  });

  it('a mail already recorded (no mail id) starts no delivery', async () => {
    unsent.add('bob');
    const handle = await run<typeof mailLoginLink>('mailLoginLink', [{ platformId, participantId: 'bob', template: 'community_access_granted', requestId: 'r2' }]);
    expect(await handle.result()).toEqual({ sent: false });
    expect(await commandsOf(handle)).toEqual(['activity sendLoginLinkMail']);
    expect(calls).toContain('sendLoginLinkMail community_access_granted bob');
  });
});

describe('sendTestMail', () => {
  it("records the template's test mail to the given address, then starts its delivery", async () => {
    const handle = await run<typeof sendTestMail>('sendTestMail', [{ platformId, courseId: null, slug: 'user_invitation', to: 'admin@example.com', requestId: 'r3' }]);
    expect(await handle.result()).toEqual({ sent: true });
    expect(await commandsOf(handle)).toEqual(['activity sendTestMail', `child mailDelivery ${delivery('test-user_invitation')}`]);
    expect(calls).toContain('sendTestMail user_invitation admin@example.com');
    await deliveredOnce('test-user_invitation');
  });
});

describe('courseMailRollout', () => {
  it('sends to each recipient when due (one timer up to the later ones), hands each recorded mail on, and counts those sent', async () => {
    const handle = await run<typeof courseMailRollout>('courseMailRollout', [{ platformId, courseId: 'c1', templateId: 't1', notifyPrevious: true, revision: '1' }]);
    expect(await handle.result()).toEqual({ sent: 2 });
    expect(await commandsOf(handle)).toEqual([
      'activity courseMailRecipients',
      'activity sendCourseMail',
      `child mailDelivery ${delivery('course-due-now')}`,
      'timer 300',
      'activity sendCourseMail',
      `child mailDelivery ${delivery('course-due-later')}`,
      'activity sendCourseMail',
    ]);
    expect(calls.filter((c) => c.startsWith('sendCourseMail'))).toEqual(['sendCourseMail due-now lesson-1', 'sendCourseMail due-later lesson-1', 'sendCourseMail owed-none lesson-1']);
    await deliveredOnce('course-due-now');
    await deliveredOnce('course-due-later');
  });
});

describe('mailDelivery', () => {
  it('runs the delivery activity, retried until it goes out, and answers its outcome', async () => {
    const handle = await run<typeof mailDelivery>('mailDelivery', [{ platformId, mailId: 'flaky' }]);
    expect(await handle.result()).toEqual({ status: 'sent', provider: null });
    expect(await commandsOf(handle)).toEqual(['activity deliverMail']);
    expect(calls.filter((c) => c === 'deliverMail flaky')).toHaveLength(3);
  });
});
