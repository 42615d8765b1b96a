import { describe, expect, it } from 'vitest';
import { owesReinvitation, REINVITE_AFTER_MS } from '../../../domain/access/reinvitation.ts';

const now = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('owesReinvitation', () => {
  it('is owed once the invitation is a day old and the platform was never used', () => {
    expect(owesReinvitation({ invitedAt: ago(REINVITE_AFTER_MS), usedPlatform: false, now })).toBe(true);
    expect(owesReinvitation({ invitedAt: ago(5 * REINVITE_AFTER_MS), usedPlatform: false, now })).toBe(true);
  });

  it('is not owed within the day of the invitation (a burst of grants keeps its fresh link)', () => {
    expect(owesReinvitation({ invitedAt: ago(REINVITE_AFTER_MS - 1), usedPlatform: false, now })).toBe(false);
    expect(owesReinvitation({ invitedAt: now, usedPlatform: false, now })).toBe(false);
  });

  it('is never owed to an active learner or to someone never invited', () => {
    expect(owesReinvitation({ invitedAt: ago(5 * REINVITE_AFTER_MS), usedPlatform: true, now })).toBe(false);
    expect(owesReinvitation({ invitedAt: null, usedPlatform: false, now })).toBe(false);
  });
});
