import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import {
  clearOrderWorkflowId,
  clubWebhookRedeliveryWorkflowId,
  mailSequenceWorkflowId,
  orderPlacedWorkflowId,
  orderStatusWorkflowId,
  shopWebhookRedeliveryWorkflowId,
  statusTestMailsWorkflowId,
} from '../../../domain/shop/workflow-ids.ts';
import type { ChangeOrderStatusInput, ClearOrderInput, MailSequenceRun, OrderPlacedInput, SequenceRecipient } from '../../../workflows/shop/contracts.ts';
import type * as workflows from '../../../workflows/index.ts';
import { discountWorkflows } from './shop-discounts.ts';
import { sequenceWorkflows } from './shop-sequences.ts';
import { subscriberWorkflows } from './shop-subscribers.ts';
import type { OutboxRecorder } from './outbox.ts';
import type { StartOnce } from './start-once.ts';

/**
 * The shop's workflows as the api starts and signals them (`app.workflows.shop`), each with its
 * business id and start policy: one-shot starts (a repeat joins the first), manual webhook
 * redeliveries, the subscribers' renewal runs and the time-limited discounts' price runs.
 */
export function shopWorkflowStarts(client: Client, taskQueue: string, startOnce: StartOnce, outbox: OutboxRecorder) {
  return {
    /**
     * The clearing's effects, recorded in the clearing's transaction `em` (the outbox: sent by
     * `startRecorded` after the commit); a repeated clearing (or a Stripe event after it) joins, or
     * re-runs as a no-op, the same run.
     */
    clearOrder(em: EntityManager, order: ClearOrderInput) {
      return outbox.recordOnce(em, 'clearOrder', clearOrderWorkflowId(order), [order]);
    },
    /** The effects of one recorded status change (`changeId`). */
    changeOrderStatus(change: ChangeOrderStatusInput) {
      return startOnce('changeOrderStatus', orderStatusWorkflowId(change), [change]);
    },
    /** A placed order's automatic statuses and zero-total fulfilment. */
    orderPlaced(order: OrderPlacedInput) {
      return startOnce('orderPlaced', orderPlacedWorkflowId(order), [order]);
    },
    /** One recipient's run of a shop mail sequence, once per sequence and address (a newsletter sign-up starts them here). */
    mailSequence(run: MailSequenceRun & { recipient: SequenceRecipient }) {
      return startOnce('mailSequence', mailSequenceWorkflowId({ ...run, recipient: run.recipient.hash }), [run]);
    },
    /** The test mails of one checked request (`shop/<s>/status-test-mails/<request>`). */
    sendOrderStatusTestMails(input: Parameters<typeof workflows.sendOrderStatusTestMails>[0]) {
      return startOnce('sendOrderStatusTestMails', statusTestMailsWorkflowId(input), [input]);
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
    ...subscriberWorkflows(client, taskQueue),
    ...discountWorkflows(client, outbox),
    ...sequenceWorkflows(client),
  };
}
