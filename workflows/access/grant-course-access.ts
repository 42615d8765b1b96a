import type { AccessChangeOutcome } from '../../activities/access/course-access.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import { db } from '../shared/activity-proxies.ts';
import { dispatchEvents } from '../shared/dispatch-events.ts';
import { afterCourseGrant } from './course-mails.ts';
import { onboardParticipant } from './onboard-participant.ts';

export interface GrantCourseAccessInput {
  platformId: string;
  courseId: string;
  /** Normalised (lower-case) e-mail. */
  email: string;
  name?: string | null;
  accessLevel: AccessLevel;
  /** Order among this participant's grants and revokes (domain/access-commands.ts). */
  seq: number;
}

export interface GrantResult {
  participantId: string;
  invitationSent: boolean;
  outcome: AccessChangeOutcome;
  accessLevel: AccessLevel | null;
  events: RecordedDomainEvent[];
}

/**
 * Grant request: received -> queued -> applied (spec: States and transitions).
 * The participant is created and invited when absent, then the enrolment is created or its level
 * raised (a level never falls through a grant).
 */
export async function grantCourseAccess(input: GrantCourseAccessInput): Promise<GrantResult> {
  const { platformId, courseId, email, name, accessLevel, seq } = input;
  const onboarded = await onboardParticipant({ platformId, email, name, courseId });
  const change = await db.applyCourseGrant({ platformId, participant: onboarded.participant, courseId, accessLevel, source: { kind: 'direct' }, seq });
  await afterCourseGrant({ platformId, courseId, participantId: onboarded.participant.id, existingParticipant: !onboarded.created, applied: change.courseMails === true });
  await dispatchEvents(platformId, [...onboarded.events, ...change.events]);
  return {
    participantId: onboarded.participant.id,
    invitationSent: onboarded.invitationSent,
    outcome: change.outcome,
    accessLevel: change.accessLevel,
    events: [...onboarded.events, ...change.events],
  };
}
