import type { SendLoginLinkMailInput, ParticipantActivities } from '../../activities/access/participants.ts';
import { deliverInBackground } from '../shared/steps/deliver-mail.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const participants = activitiesOf<ParticipantActivities>(DB_STEP);

/**
 * An operator action's mail with a fresh login link: "resend invitation" (`user_reinvitation`)
 * or "community access granted" (`community_access_granted`).
 */
export async function mailLoginLink(p: SendLoginLinkMailInput): Promise<{ sent: boolean }> {
  const mail = await participants.sendLoginLinkMail(p);
  await deliverInBackground(p.platformId, mail.mailId);
  return { sent: mail.sent };
}
