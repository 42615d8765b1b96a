import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';

/** A quiz result was reported (operator API `quiz_results`): `quiz_passed` when passed, to the webhooks. */
export async function quizResultRecorded({ platformId, resultId }: { platformId: string; resultId: string }) {
  return withEventsDispatched(platformId, await db.recordQuizResultEvents({ platformId, resultId }));
}
