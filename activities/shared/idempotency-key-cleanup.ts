import { deleteOldCommandPeople } from '../../db/repositories/access/command-seq.ts';
import { deleteExpiredKeys } from '../../db/repositories/shared/idempotency-keys.ts';
import type { ActivityDeps } from './deps.ts';

/** Rows one statement deletes: small enough to keep each statement short beside the claims. */
const BATCH = 1000;

/** Deletes with `deleteBatch` until a batch comes back short; returns how many rows went. */
async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * What the hourly schedule forgets (worker/schedules.ts): the Idempotency-Key rows past their 24
 * hours, and the rows of grant and revoke commands (who each is for, `access_command_people`) past
 * their 7 days. Both in the one activity the schedule's workflow already runs: its commands stay
 * as they are.
 */
export function idempotencyKeyCleanupActivities({ orm }: ActivityDeps) {
  return {
    /** Deletes every expired key and old command row of every tenant, a batch at a time; returns how many. Idempotent. */
    async deleteExpiredIdempotencyKeys(): Promise<number> {
      const em = orm.em.fork();
      return (await deleteInBatches((limit) => deleteExpiredKeys(em, limit))) + (await deleteInBatches((limit) => deleteOldCommandPeople(em, limit)));
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<IdempotencyKeyCleanupActivities>(profile)` (workflows/shared/activities-of.ts). */
export type IdempotencyKeyCleanupActivities = ReturnType<typeof idempotencyKeyCleanupActivities>;
