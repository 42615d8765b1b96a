import { deleteExpiredKeys } from '../../db/repositories/shared/idempotency-keys.ts';
import type { ActivityDeps } from './deps.ts';

/** Rows one statement deletes: small enough to keep each statement short beside the claims. */
const BATCH = 1000;

/** The Idempotency-Key rows past their 24 hours, forgotten by the hourly schedule (worker/schedules.ts). */
export function idempotencyKeyCleanupActivities({ orm }: ActivityDeps) {
  return {
    /** Deletes every expired key of every tenant, a batch at a time; returns how many. Idempotent. */
    async deleteExpiredIdempotencyKeys(): Promise<number> {
      const em = orm.em.fork();
      let total = 0;
      for (;;) {
        const deleted = await deleteExpiredKeys(em, BATCH);
        total += deleted;
        if (deleted < BATCH) return total;
      }
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<IdempotencyKeyCleanupActivities>(profile)` (workflows/shared/activities-of.ts). */
export type IdempotencyKeyCleanupActivities = ReturnType<typeof idempotencyKeyCleanupActivities>;
