import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { PlannedMail } from '../../../domain/access/course-mail-schedule.ts';
import type { courseEnrolmentMails, lessonCompleted } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/** The course mail workflows on the real server, with recording fake activities and tiny delays. */
const taskQueue = uniqueTaskQueue('course-mails-wf');
const calls: { name: string; at: number; input: { participantId: string; templateId?: string; lessonId?: string | null } }[] = [];
const plans = new Map<string, PlannedMail[]>();
const inactive = new Set<string>();

const fakeActivities: Partial<Activities> = {
  async planCourseMails(input) {
    calls.push({ name: 'planCourseMails', at: Date.now(), input });
    return plans.get(`${input.participantId}/${input.lessonId ?? 'enrolment'}`) ?? [];
  },
  async sendCourseMail(input) {
    calls.push({ name: 'sendCourseMail', at: Date.now(), input });
    return { sent: !inactive.has(input.templateId), mailId: null };
  },
  async recordLessonCompletionEvents() {
    return { events: [] };
  },
  async sendCourseReinvitation(input) {
    calls.push({ name: 'sendCourseReinvitation', at: Date.now(), input });
    return { sent: true, mailId: null };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);

const callsOf = (participantId: string) => calls.filter((c) => c.input.participantId === participantId);

const enrolmentMails = (participantId: string, existingParticipant: boolean) =>
  temporal.client().workflow.execute<typeof courseEnrolmentMails>('courseEnrolmentMails', {
    taskQueue,
    workflowId: `test/${randomUUID()}`,
    args: [{ platformId: 'p1', courseId: 'c1', participantId, existingParticipant }],
  });

describe('courseEnrolmentMails workflow', () => {
  it('sleeps until each planned mail is due, then sends it, soonest first', async () => {
    plans.set('new/enrolment', [
      { templateId: 'now', delayMs: 0 },
      { templateId: 'soon', delayMs: 1500 },
    ]);
    const started = Date.now();
    const result = await enrolmentMails('new', false);
    expect(result).toEqual({ sent: ['now', 'soon'] });
    const sends = callsOf('new').filter((c) => c.name === 'sendCourseMail');
    expect(sends.map((c) => c.input.templateId)).toEqual(['now', 'soon']);
    expect(sends[1]!.at - started).toBeGreaterThanOrEqual(1400);
    expect(callsOf('new').map((c) => c.name)).toEqual(['planCourseMails', 'sendCourseMail', 'sendCourseMail']);
  });

  it('sends the reinvitation first to a participant who existed before', async () => {
    const result = await enrolmentMails('existing', true);
    expect(callsOf('existing').map((c) => c.name)).toEqual(['sendCourseReinvitation', 'planCourseMails']);
    expect(result).toEqual({ sent: ['course_reinvitation'] });
  });

  it('a mail whose template was switched off meanwhile is not reported as sent', async () => {
    plans.set('switched/enrolment', [{ templateId: 'off-now', delayMs: 100 }]);
    inactive.add('off-now');
    expect(await enrolmentMails('switched', false)).toEqual({ sent: [] });
  });
});

describe('lessonCompleted workflow', () => {
  it("sends the lesson's planned mails", async () => {
    plans.set('finisher/l1', [{ templateId: 'after-l1', delayMs: 0 }]);
    const result = await temporal.client().workflow.execute<typeof lessonCompleted>('lessonCompleted', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ platformId: 'p1', courseId: 'c1', participantId: 'finisher', lessonId: 'l1' }],
    });
    expect(result).toEqual({ sent: ['after-l1'] });
    expect(callsOf('finisher')[0]!.input.lessonId).toBe('l1');
  });
});
