/** How long an invitation may go unanswered before a new grant sends a fresh login link. */
export const REINVITE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A participant given a new course is reinvited (the platform's `user_reinvitation`, fresh login
 * link) when the invitation went out at least a day ago and the platform was never used since.
 * The day keeps a burst of grants for a new address (several courses ordered at once) from
 * replacing the link of the invitation it has just been sent.
 */
export function owesReinvitation(p: { invitedAt: Date | null; usedPlatform: boolean; now: Date }): boolean {
  if (p.usedPlatform || !p.invitedAt) return false;
  return p.now.getTime() - p.invitedAt.getTime() >= REINVITE_AFTER_MS;
}
