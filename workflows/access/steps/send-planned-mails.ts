import { sleep } from '@temporalio/workflow';
import type { PlanCourseMailsInput } from '../../../activities/access/course-mails.ts';
import { db } from '../../shared/activity-proxies.ts';
import { deliverInBackground } from '../../shared/steps/deliver-mail.ts';

/** Sleeps until each planned mail is due and sends it; a template switched off meanwhile sends nothing. */
export async function sendPlannedMails(trigger: PlanCourseMailsInput): Promise<string[]> {
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
