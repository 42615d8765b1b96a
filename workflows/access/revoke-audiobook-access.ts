import type { AccessChange } from '../../activities/access/course-access.ts';
import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { RevokeAccessInput } from './contracts.ts';

/** Revoke of an audiobook (spec: DELETE /api/audiobooks/unsubscribe). */
export async function revokeAudiobookAccess(input: RevokeAccessInput & { audiobookId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await db.withdrawAudiobookAccess(input));
}
