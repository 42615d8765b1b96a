import type { AccessChange } from '../../activities/access/course-access.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { RevokeAccessInput } from './contracts.ts';
import type { AudiobookAccessActivities } from '../../activities/access/audiobook-access.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const audiobookAccess = activitiesOf<AudiobookAccessActivities>(DB_STEP);

/** Revoke of an audiobook (spec: DELETE /api/audiobooks/unsubscribe). */
export async function revokeAudiobookAccess(input: RevokeAccessInput & { audiobookId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await audiobookAccess.withdrawAudiobookAccess(input));
}
