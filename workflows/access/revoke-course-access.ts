import type { AccessChange, CourseAccessActivities } from '../../activities/access/course-access.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { RevokeAccessInput } from './contracts.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const courseAccess = activitiesOf<CourseAccessActivities>(DB_STEP);

/** Revoke of a course (spec: DELETE /api/courses/unsubscribe): level-0 access only (rule 6). */
export async function revokeCourseAccess(input: RevokeAccessInput & { courseId: string }): Promise<AccessChange> {
  return withEventsDispatched(input.platformId, await courseAccess.withdrawCourseAccess(input));
}
