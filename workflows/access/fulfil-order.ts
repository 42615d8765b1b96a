import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { FulfilOrderInput } from './contracts.ts';
import { handOn } from './steps/hand-on.ts';
import { startEnrolmentMails } from './steps/start-enrolment-mails.ts';
import type { GrantActivities } from '../../activities/access/grants.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { LOCAL_DB_STEP } from '../shared/activity-profiles.ts';

const grants = activitiesOf<GrantActivities>(LOCAL_DB_STEP);

export type { FulfilOrderInput };

/**
 * Order: none -> registered, "access granted for ordered contents" (spec: States and transitions),
 * in one local step (activities/access/grants.ts); then the invitation, the course mails and the
 * webhooks are handed on.
 */
export async function fulfilOrder(input: FulfilOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  const { platformId } = input;
  const step = await grants.fulfilOrderAccess(input);
  const existingParticipant = !step.created;
  await Promise.all([
    handOn(platformId, step),
    ...step.courses.map(({ courseId, courseMails }) => startEnrolmentMails({ platformId, courseId, participantId: step.participantId, existingParticipant, applied: courseMails })),
  ]);
  return { events: step.events };
}
