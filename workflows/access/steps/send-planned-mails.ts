import { sleep } from '@temporalio/workflow';
import type { PlanCourseMailsInput, CourseMailActivities } from '../../../activities/access/course-mails.ts';
import { deliverInBackground } from '../../shared/steps/deliver-mail.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { DB_STEP } from '../../shared/activity-profiles.ts';

const courseMails = activitiesOf<CourseMailActivities>(DB_STEP);

/** Sleeps until each planned mail is due and sends it; a template switched off meanwhile sends nothing. */
export async function sendPlannedMails(trigger: PlanCourseMailsInput): Promise<string[]> {
  const plan = await courseMails.planCourseMails(trigger);
  const sent: string[] = [];
  let waitedMs = 0;
  for (const { templateId, delayMs } of plan) {
    if (delayMs > waitedMs) {
      await sleep(delayMs - waitedMs);
      waitedMs = delayMs;
    }
    const result = await courseMails.sendCourseMail({ platformId: trigger.platformId, courseId: trigger.courseId, participantId: trigger.participantId, templateId, lessonId: trigger.lessonId ?? null });
    await deliverInBackground(trigger.platformId, result.mailId);
    if (result.sent) sent.push(templateId);
  }
  return sent;
}
