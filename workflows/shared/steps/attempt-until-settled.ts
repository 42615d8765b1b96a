import { sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';

/**
 * The attempt loop of every webhook delivery (the platform's, a shop's, the club's, `customer_erased`):
 * attempt, wait as long as the attempt says, attempt again, until the delivery is over.
 */
export async function attemptUntilSettled(attempt: () => Promise<{ status: WebhookDeliveryStatus; nextAttemptInMs: number | null }>): Promise<WebhookDeliveryStatus> {
  for (;;) {
    const result = await attempt();
    if (result.nextAttemptInMs === null) return result.status;
    await sleep(result.nextAttemptInMs);
  }
}
