import { db } from '../shared/activity-proxies.ts';
import { dispatchEvents } from '../shared/steps/dispatch-events.ts';
import { sendPlannedMails } from './steps/send-planned-mails.ts';

export interface LessonCompletedInput {
  platformId: string;
  courseId: string;
  participantId: string;
  lessonId: string;
}

/** A participant completed a lesson: the course mails sent after that lesson. */
export async function lessonCompleted(input: LessonCompletedInput): Promise<{ sent: string[] }> {
  await dispatchEvents(input.platformId, (await db.recordLessonCompletionEvents(input)).events);
  return { sent: await sendPlannedMails(input) };
}
