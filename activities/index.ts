import type { ActivityDeps } from './deps.ts';
import { audiobookAccessActivities } from './audiobook-access.ts';
import { courseAccessActivities } from './course-access.ts';
import { orderActivities } from './orders.ts';
import { participantActivities } from './participants.ts';

export type { ActivityDeps } from './deps.ts';

/** Every activity the worker registers, built once from real dependencies (or fakes in tests). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...participantActivities(deps),
    ...courseAccessActivities(deps),
    ...audiobookAccessActivities(deps),
    ...orderActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
