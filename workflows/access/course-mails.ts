import { sleep } from '@temporalio/workflow';
import type { CourseMailRolloutInput, PlanCourseMailsInput } from '../../activities/access/course-mails.ts';
import { courseMailsWorkflowId } from '../../domain/shared/workflow-ids.ts';
import { db } from '../shared/activity-proxies.ts';
import { dispatchEvents } from '../shared/dispatch-events.ts';
import { deliverInBackground } from '../shared/mail-delivery.ts';
import { startChildOnce } from '../shared/start-child-once.ts';

export interface CourseEnrolmentMailsInput {
  platformId: string;
  courseId: string;
  participantId: string;
  /** The participant had an account before this grant (reinvitation instead of invitation). */
  existingParticipant: boolean;
}

export interface LessonCompletedInput {
  platformId: string;
  courseId: string;
  participantId: string;
  lessonId: string;
}

/** Sleeps until each planned mail is due and sends it; a template switched off meanwhile sends nothing. */
async function sendPlannedMails(trigger: PlanCourseMailsInput): Promise<string[]> {
  const plan = await db.planCourseMails(trigger);
  const sent: string[] = [];
  let waitedMs = 0;
  for (const { templateId, delayMs } of plan) {
    if (delayMs > waitedMs) {
      await sleep(delayMs - waitedMs);
      waitedMs = delayMs;
    }
    const result = await db.sendCourseMail({ platformId: trigger.platformId, courseId: trigger.courseId, participantId: trigger.participantId, templateId, lessonId: trigger.lessonId ?? null });
    await deliverInBackground(trigger.platformId, result.mailId);
    if (result.sent) sent.push(templateId);
  }
  return sent;
}

/** Enrolment in a course: the course's own reinvitation, then the mails timed `send_after` days from the enrolment. */
export async function courseEnrolmentMails(input: CourseEnrolmentMailsInput): Promise<{ sent: string[] }> {
  const { platformId, courseId, participantId } = input;
  const sent: string[] = [];
  if (input.existingParticipant) {
    const reinvitation = await db.sendCourseReinvitation({ platformId, courseId, participantId });
    await deliverInBackground(platformId, reinvitation.mailId);
    if (reinvitation.sent) sent.push('course_reinvitation');
  }
  sent.push(...(await sendPlannedMails({ platformId, courseId, participantId, lessonId: null })));
  return { sent };
}

/** A participant completed a lesson: the course mails sent after that lesson. */
export async function lessonCompleted(input: LessonCompletedInput): Promise<{ sent: string[] }> {
  await dispatchEvents(input.platformId, (await db.recordLessonCompletionEvents(input)).events);
  return { sent: await sendPlannedMails(input) };
}

/**
 * A timed mail created or switched on with `notify_previous_users`, or whose `send_after` or lesson
 * changed: every participant it is still owed to gets it when due by its timing now, once each
 * (the dedupe key); a mail switched off or re-timed again before then is not sent by this run.
 */
export async function courseMailRollout(input: CourseMailRolloutInput): Promise<{ sent: number }> {
  const { lessonId, recipients } = await db.courseMailRecipients(input);
  let sent = 0;
  let waitedMs = 0;
  for (const { participantId, delayMs } of recipients) {
    if (delayMs > waitedMs) {
      await sleep(delayMs - waitedMs);
      waitedMs = delayMs;
    }
    const result = await db.sendCourseMail({ platformId: input.platformId, courseId: input.courseId, participantId, templateId: input.templateId, lessonId });
    await deliverInBackground(input.platformId, result.mailId);
    if (result.sent) sent += 1;
  }
  return { sent };
}

/**
 * Called by the grant workflows once access to a course was applied. Starts the enrolment's course
 * mails as a child that outlives the grant; its id is per participant and course, so a repeated or
 * raised grant finds it started and nothing is sent twice.
 */
export async function afterCourseGrant(p: CourseEnrolmentMailsInput & { applied: boolean }): Promise<void> {
  if (!p.applied) return;
  const { applied: _applied, ...input } = p;
  await startChildOnce(courseEnrolmentMails, { workflowId: courseMailsWorkflowId(input), args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
}
