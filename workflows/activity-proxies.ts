import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';

/**
 * Database activities: short, idempotent, retried until they succeed. Only errors the activity
 * marks non-retryable (e.g. a course of another platform) stop the retries.
 */
export const db = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
  },
});
