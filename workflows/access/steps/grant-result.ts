import type { AccessChangeOutcome } from '../../../activities/access/course-access.ts';
import type { GrantStep } from '../../../activities/access/grants.ts';
import type { AccessLevel } from '../../../domain/access/access-level.ts';
import type { RecordedDomainEvent } from '../../../domain/shared/events.ts';

/** What a course or audiobook grant workflow returns. */
export interface GrantResult {
  participantId: string;
  invitationSent: boolean;
  outcome: AccessChangeOutcome;
  accessLevel: AccessLevel | null;
  events: RecordedDomainEvent[];
}

export function grantResult(step: GrantStep): GrantResult {
  return { participantId: step.participantId, invitationSent: step.invitationSent, outcome: step.outcome, accessLevel: step.accessLevel, events: step.events };
}
