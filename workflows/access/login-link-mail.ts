import type { SendLoginLinkMailInput } from '../../activities/access/participants.ts';
import { db } from '../shared/activity-proxies.ts';
import { deliverInBackground } from '../shared/steps/deliver-mail.ts';

/**
 * An operator action's mail with a fresh login link: "resend invitation" (`user_reinvitation`)
 * or "community access granted" (`community_access_granted`).
 */
export async function mailLoginLink(p: SendLoginLinkMailInput): Promise<{ sent: boolean }> {
  const mail = await db.sendLoginLinkMail(p);
  await deliverInBackground(p.platformId, mail.mailId);
  return { sent: mail.sent };
}
