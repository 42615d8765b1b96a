import type { CourseGrantInput, GrantActivities } from '../../activities/access/grants.ts';
import { grantResult, type GrantResult } from './steps/grant-result.ts';
import { handOn } from './steps/hand-on.ts';
import { startEnrolmentMails } from './steps/start-enrolment-mails.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { LOCAL_DB_STEP } from '../shared/activity-profiles.ts';

const grants = activitiesOf<GrantActivities>(LOCAL_DB_STEP);

/** One course entry of `POST /api/courses/subscribe`: the grant step's input as it is. */
export type GrantCourseAccessInput = CourseGrantInput;

export type { GrantResult };

/**
 * Grant request: received -> queued -> applied (spec: States and transitions).
 * One local step applies the whole grant in one transaction (the participant created and invited
 * when absent, the enrolment created or its level raised: a level never falls through a grant);
 * then what is to be delivered is handed on: the invitation, the course mails, the webhooks.
 */
export async function grantCourseAccess(input: GrantCourseAccessInput): Promise<GrantResult> {
  const { platformId, courseId } = input;
  const step = await grants.grantCourse(input);
  await Promise.all([
    handOn(platformId, step),
    startEnrolmentMails({ platformId, courseId, participantId: step.participantId, existingParticipant: !step.created, applied: step.courseMails === true }),
  ]);
  return grantResult(step);
}
