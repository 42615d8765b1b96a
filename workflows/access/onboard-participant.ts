import type { SendLoginLinkMailInput } from '../../activities/access/participants.ts';
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

/**
 * An operator action's mail with a fresh login link: "resend invitation" (`user_reinvitation`)
 * or "community access granted" (`community_access_granted`).
 */
export async function mailLoginLink(p: SendLoginLinkMailInput): Promise<{ sent: boolean }> {
  const mail = await db.sendLoginLinkMail(p);
  await deliverInBackground(p.platformId, mail.mailId);
  return { sent: mail.sent };
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
