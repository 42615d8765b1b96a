import type { GrantResult } from './grant-course-access.ts';
import { db } from '../shared/activity-proxies.ts';
import { dispatchEvents } from '../shared/dispatch-events.ts';
import { onboardParticipant } from './onboard-participant.ts';

export interface GrantAudiobookAccessInput {
  platformId: string;
  audiobookId: string;
  email: string;
  name?: string | null;
  seq: number;
}

/** Audiobook grant: the participant is created and invited when absent, then given the audiobook. */
export async function grantAudiobookAccess({ platformId, audiobookId, email, name, seq }: GrantAudiobookAccessInput): Promise<GrantResult> {
  const onboarded = await onboardParticipant({ platformId, email, name });
  const change = await db.applyAudiobookGrant({ platformId, participant: onboarded.participant, audiobookId, seq });
  await dispatchEvents(platformId, [...onboarded.events, ...change.events]);
  return {
    participantId: onboarded.participant.id,
    invitationSent: onboarded.invitationSent,
    outcome: change.outcome,
    accessLevel: null,
    events: [...onboarded.events, ...change.events],
  };
}
