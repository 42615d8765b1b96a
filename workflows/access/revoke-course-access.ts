import type { AccessChange } from '../../activities/access/course-access.ts';
import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { RevokeAccessInput } from './contracts.ts';

/** Revoke of a course (spec: DELETE /api/courses/unsubscribe): level-0 access only (rule 6). */
export async function revokeCourseAccess(input: RevokeAccessInput & { courseId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await db.withdrawCourseAccess(input));
}
