import type { AccessChange } from '../../activities/access/course-access.ts';
import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/dispatch-events.ts';

export interface RevokeAccessInput {
  platformId: string;
  /** Normalised (lower-case) e-mail. */
  email: string;
  seq: number;
}

/** Revoke of a course (spec: DELETE /api/courses/unsubscribe): level-0 access only (rule 6). */
export async function revokeCourseAccess(input: RevokeAccessInput & { courseId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await db.withdrawCourseAccess(input));
}

/** Revoke of an audiobook (spec: DELETE /api/audiobooks/unsubscribe). */
export async function revokeAudiobookAccess(input: RevokeAccessInput & { audiobookId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await db.withdrawAudiobookAccess(input));
}
