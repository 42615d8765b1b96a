import { quizResultWorkflowId, webhookRedeliveryWorkflowId } from '../../domain/shared/workflow-ids.ts';
import { clubWebhookRedeliveryWorkflowId, shopWebhookRedeliveryWorkflowId } from '../../domain/shop/workflow-ids.ts';
import type * as workflows from '../../workflows/index.ts';
import type { StartOnce } from './start-once.ts';

/** Starts of the webhook side: manual redeliveries (the platform's, a shop webhook's, the club's) and reported quiz results; one-shot per business id. */
export function webhookWorkflowStarts(startOnce: StartOnce) {
  return {
    /** The `redelivery`-th manual redelivery of an (event, webhook) pair: one attempt. */
    redeliverWebhook(p: { platformId: string; webhookId: string; eventId: string; redelivery: number }) {
      const input: Parameters<typeof workflows.deliverWebhook>[0] = { platformId: p.platformId, webhookId: p.webhookId, eventId: p.eventId, manual: true };
      return startOnce('deliverWebhook', webhookRedeliveryWorkflowId(p), [input]);
    },
    /** The `redelivery`-th manual redelivery of a shop webhook's delivery: one attempt. */
    redeliverShopWebhook(p: { shopId: string; webhookId: string; deliveryId: string; redelivery: number }) {
      const input: Parameters<typeof workflows.redeliverShopWebhook>[0] = { shopId: p.shopId, deliveryId: p.deliveryId };
      return startOnce('redeliverShopWebhook', shopWebhookRedeliveryWorkflowId(p), [input]);
    },
    /** The `redelivery`-th manual redelivery of a club webhook's delivery (an order at a status): one attempt. */
    redeliverClubWebhook(p: { shopId: string; deliveryId: string; orderId: number; statusId: number; redelivery: number }) {
      const input: Parameters<typeof workflows.deliverClubWebhook>[0] = { shopId: p.shopId, deliveryId: p.deliveryId, manual: true };
      return startOnce('deliverClubWebhook', clubWebhookRedeliveryWorkflowId(p), [input]);
    },
    quizResultRecorded(input: Parameters<typeof workflows.quizResultRecorded>[0]) {
      return startOnce('quizResultRecorded', quizResultWorkflowId(input), [input]);
    },
  };
}
