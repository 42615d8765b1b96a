import type { AccessLevel } from '../domain/access-level.ts';
import { db } from './activity-proxies.ts';

export interface GrantCourseAccessInput {
  platformId: string;
  courseId: string;
  /** Normalised (lower-case) e-mail. */
  email: string;
  name?: string | null;
  accessLevel: AccessLevel;
}

export interface GrantCourseAccessResult {
  participantId: string;
  invitationSent: boolean;
  accessLevel: AccessLevel;
  enrolmentCreated: boolean;
}

/**
 * Grant request: received -> queued -> applied (spec: States and transitions).
 * 1. the participant is created when absent, and invited once;
 * 2. the enrolment is created or its level raised (a level never falls).
 */
export async function grantCourseAccess(input: GrantCourseAccessInput): Promise<GrantCourseAccessResult> {
  const { platformId, courseId, email, name, accessLevel } = input;

  const participant = await db.ensureParticipant({ platformId, email, name });
  const invitation = participant.invited
    ? { sent: false }
    : await db.sendInvitation({ platformId, participantId: participant.participantId, courseId });

  const grant = await db.applyCourseGrant({ platformId, participantId: participant.participantId, courseId, accessLevel });

  return {
    participantId: participant.participantId,
    invitationSent: invitation.sent,
    accessLevel: grant.accessLevel,
    enrolmentCreated: grant.created,
  };
}
