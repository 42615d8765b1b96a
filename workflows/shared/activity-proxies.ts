import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';

/**
 * Database activities: short, idempotent, retried until they succeed. Only errors the activity
 * marks non-retryable (e.g. a course of another platform) stop the retries. The timeout is also how
 * long an attempt lost with a crashed worker waits before it is retried elsewhere, so it is short.
 */
export const db = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
  },
});
