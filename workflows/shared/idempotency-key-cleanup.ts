import { db } from './activity-proxies.ts';

/** Run hourly by the `idempotency-key-cleanup/<task queue>` schedule (worker/schedules.ts): forgets the expired Idempotency-Key replies. */
export async function idempotencyKeyCleanup(): Promise<number> {
  return db.deleteExpiredIdempotencyKeys();
}
