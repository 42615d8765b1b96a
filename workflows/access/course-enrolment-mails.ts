import { deliverInBackground } from '../shared/steps/deliver-mail.ts';
import type { CourseEnrolmentMailsInput } from './contracts.ts';
import { sendPlannedMails } from './steps/send-planned-mails.ts';
import type { CourseMailActivities } from '../../activities/access/course-mails.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const courseMails = activitiesOf<CourseMailActivities>(DB_STEP);

export type { CourseEnrolmentMailsInput };

/** Enrolment in a course: the course's own reinvitation, then the mails timed `send_after` days from the enrolment. */
export async function courseEnrolmentMails(input: CourseEnrolmentMailsInput): Promise<{ sent: string[] }> {
  const { platformId, courseId, participantId } = input;
  const sent: string[] = [];
  if (input.existingParticipant) {
    const reinvitation = await courseMails.sendCourseReinvitation({ platformId, courseId, participantId });
    await deliverInBackground(platformId, reinvitation.mailId);
    if (reinvitation.sent) sent.push('course_reinvitation');
  }
  sent.push(...(await sendPlannedMails({ platformId, courseId, participantId, lessonId: null })));
  return { sent };
}
