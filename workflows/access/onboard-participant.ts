import type { ParticipantRef, RecordedDomainEvent } from '../../domain/shared/events.ts';
import { db } from '../shared/activity-proxies.ts';
import { deliverInBackground } from '../shared/mail-delivery.ts';

export interface Onboarded {
  participant: ParticipantRef;
  /**
   * This grant created the participant. Read from the `user_registered` event, which a retried
   * activity returns again, so a crash between the insert and its reply cannot flip it.
   */
  created: boolean;
  invitationSent: boolean;
  events: RecordedDomainEvent[];
}

/** The operator's "resend invitation" (POST /admin/v1/platforms/:id/participants/reinvite). */
export async function reinviteParticipant(p: { platformId: string; participantId: string; requestId: string }): Promise<{ sent: boolean }> {
  const reinvitation = await db.sendReinvitation(p);
  await deliverInBackground(p.platformId, reinvitation.mailId);
  return { sent: reinvitation.sent };
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
  if ('mailId' in invitation) await deliverInBackground(p.platformId, invitation.mailId);
  return {
    participant: { id: ensured.participantId, email: p.email },
    created: ensured.events.some((e) => e.type === 'user_registered'),
    invitationSent: invitation.sent,
    events: ensured.events,
  };
}
