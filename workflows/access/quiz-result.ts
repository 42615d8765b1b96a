import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { ProgressEventActivities } from '../../activities/access/progress-events.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const progressEvents = activitiesOf<ProgressEventActivities>(DB_STEP);

/** A quiz result was reported (operator API `quiz_results`): `quiz_passed` when passed, to the webhooks. */
export async function quizResultRecorded({ platformId, resultId }: { platformId: string; resultId: string }) {
  return withEventsDispatched(platformId, await progressEvents.recordQuizResultEvents({ platformId, resultId }));
}
