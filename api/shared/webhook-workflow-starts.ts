import { quizResultWorkflowId, webhookRedeliveryWorkflowId } from '../../domain/shared/workflow-ids.ts';
import type * as workflows from '../../workflows/index.ts';
import type { StartOnce } from './start-once.ts';

/** Starts of the webhook side: manual redeliveries and reported quiz results; one-shot per business id. */
export function webhookWorkflowStarts(startOnce: StartOnce) {
  return {
    /** The `redelivery`-th manual redelivery of an (event, webhook) pair: one attempt. */
    redeliverWebhook(p: { platformId: string; webhookId: string; eventId: string; redelivery: number }) {
      const input: Parameters<typeof workflows.deliverWebhook>[0] = { platformId: p.platformId, webhookId: p.webhookId, eventId: p.eventId, manual: true };
      return startOnce('deliverWebhook', webhookRedeliveryWorkflowId(p), [input]);
    },
    quizResultRecorded(input: Parameters<typeof workflows.quizResultRecorded>[0]) {
      return startOnce('quizResultRecorded', quizResultWorkflowId(input), [input]);
    },
  };
}
