import type { ParticipantRef, RecordedDomainEvent } from '../domain/events.ts';
import { db } from './activity-proxies.ts';

export interface Onboarded {
  participant: ParticipantRef;
  invitationSent: boolean;
  events: RecordedDomainEvent[];
}

/**
 * The first step of every grant: the participant is created when absent and invited once
 * (spec: "If no account exists for the e-mail, one is created and invited").
 */
export async function onboardParticipant(p: { platformId: string; email: string; name?: string | null; courseId?: string | null }): Promise<Onboarded> {
  const ensured = await db.ensureParticipant({ platformId: p.platformId, email: p.email, name: p.name });
  const invitation = ensured.invited
    ? { sent: false }
    : await db.sendInvitation({ platformId: p.platformId, participantId: ensured.participantId, courseId: p.courseId ?? null });
  return { participant: { id: ensured.participantId, email: p.email }, invitationSent: invitation.sent, events: ensured.events };
}
