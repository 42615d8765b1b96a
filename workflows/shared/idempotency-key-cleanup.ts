import type { IdempotencyKeyCleanupActivities } from '../../activities/shared/idempotency-key-cleanup.ts';
import { activitiesOf } from './activities-of.ts';
import { DB_STEP } from './activity-profiles.ts';

const idempotencyKeys = activitiesOf<IdempotencyKeyCleanupActivities>(DB_STEP);

/** Run hourly by the `idempotency-key-cleanup/<task queue>` schedule (worker/schedules.ts): forgets the expired Idempotency-Key replies. */
export async function idempotencyKeyCleanup(): Promise<number> {
  return idempotencyKeys.deleteExpiredIdempotencyKeys();
}
