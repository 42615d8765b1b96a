import { dispatchEvents } from '../shared/steps/dispatch-events.ts';
import { sendPlannedMails } from './steps/send-planned-mails.ts';
import type { ProgressEventActivities } from '../../activities/access/progress-events.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const progressEvents = activitiesOf<ProgressEventActivities>(DB_STEP);

export interface LessonCompletedInput {
  platformId: string;
  courseId: string;
  participantId: string;
  lessonId: string;
}

/** A participant completed a lesson: the course mails sent after that lesson. */
export async function lessonCompleted(input: LessonCompletedInput): Promise<{ sent: string[] }> {
  await dispatchEvents(input.platformId, (await progressEvents.recordLessonCompletionEvents(input)).events);
  return { sent: await sendPlannedMails(input) };
}
