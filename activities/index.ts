import type { ActivityDeps } from './deps.ts';
import { grantActivities } from './grants.ts';
import { participantActivities } from './participants.ts';

export type { ActivityDeps } from './deps.ts';

/** Every activity the worker registers, built once from real dependencies (or fakes in tests). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...participantActivities(deps),
    ...grantActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
