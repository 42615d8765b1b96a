import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { CancelOrderInput } from './contracts.ts';
import type { CourseAccessActivities } from '../../activities/access/course-access.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const courseAccess = activitiesOf<CourseAccessActivities>(DB_STEP);

/** Order: registered -> cancelled, "related access withdrawn". */
export async function cancelOrder({ platformId, orderId }: CancelOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  return withEventsDispatched(platformId, await courseAccess.withdrawOrderAccess({ platformId, orderId }));
}
