import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import {
  clearOrderWorkflowId,
  clubWebhookRedeliveryWorkflowId,
  mailSequenceWorkflowId,
  orderStatusWorkflowId,
  shopWebhookRedeliveryWorkflowId,
  statusTestMailsWorkflowId,
} from '../../../domain/shop/workflow-ids.ts';
import type { ChangeOrderStatusInput, ClearOrderInput, MailSequenceRun, SequenceRecipient } from '../../../workflows/shop/contracts.ts';
import type * as workflows from '../../../workflows/index.ts';
import { discountWorkflows } from './shop-discounts.ts';
import { sequenceWorkflows } from './shop-sequences.ts';
import { subscriberWorkflows } from './shop-subscribers.ts';
import type { OutboxRecorder, RecordedStart, StartOrRecord } from './outbox.ts';

/**
 * The shop's workflows as the api starts and signals them (`app.workflows.shop`), each with its
 * business id and start policy: one-shot starts (a repeat joins the first), manual webhook
 * redeliveries, the subscribers' renewal runs and the time-limited discounts' price runs.
 */
export function shopWorkflowStarts(client: Client, outbox: OutboxRecorder, startOrRecord: StartOrRecord) {
  return {
    /**
     * The clearing's effects, recorded in the clearing's transaction `em` (the outbox: sent by
     * `startRecorded` after the commit); a repeated clearing (or a Stripe event after it) joins, or
     * re-runs as a no-op, the same run.
     */
    clearOrder(em: EntityManager, order: ClearOrderInput) {
      return outbox.recordOnce(em, 'clearOrder', clearOrderWorkflowId(order), [order]);
    },
    /** The effects of one recorded status change (`changeId`), recorded in the change's transaction `em`. */
    changeOrderStatus(em: EntityManager, change: ChangeOrderStatusInput): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'changeOrderStatus', orderStatusWorkflowId(change), [change]);
    },
    /** One recipient's run of a shop mail sequence, once per sequence and address (a newsletter sign-up records them in its transaction `em`). */
    mailSequence(em: EntityManager, run: MailSequenceRun & { recipient: SequenceRecipient }): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'mailSequence', mailSequenceWorkflowId({ ...run, recipient: run.recipient.hash }), [run]);
    },
    /** The test mails of one checked request (`shop/<s>/status-test-mails/<request>`): started at once, recorded in `em` only when Temporal does not take it. */
    async sendOrderStatusTestMails(em: EntityManager, input: Parameters<typeof workflows.sendOrderStatusTestMails>[0]): Promise<string> {
      const workflowId = statusTestMailsWorkflowId(input);
      await startOrRecord(em, [{ workflowType: 'sendOrderStatusTestMails', workflowId, request: { kind: 'start', args: [input] } }]);
      return workflowId;
    },
    /** The `redelivery`-th manual redelivery of a shop webhook's delivery: one attempt, recorded with the delivery's claim. */
    redeliverShopWebhook(em: EntityManager, p: { shopId: string; webhookId: string; deliveryId: string; redelivery: number }): Promise<RecordedStart> {
      const input: Parameters<typeof workflows.redeliverShopWebhook>[0] = { shopId: p.shopId, deliveryId: p.deliveryId };
      return outbox.recordOnce(em, 'redeliverShopWebhook', shopWebhookRedeliveryWorkflowId(p), [input]);
    },
    /** The `redelivery`-th manual redelivery of a club webhook's delivery (an order at a status): one attempt, recorded with the delivery's claim. */
    redeliverClubWebhook(em: EntityManager, p: { shopId: string; deliveryId: string; orderId: number; statusId: number; redelivery: number }): Promise<RecordedStart> {
      const input: Parameters<typeof workflows.deliverClubWebhook>[0] = { shopId: p.shopId, deliveryId: p.deliveryId, manual: true };
      return outbox.recordOnce(em, 'deliverClubWebhook', clubWebhookRedeliveryWorkflowId(p), [input]);
    },
    ...subscriberWorkflows(client, outbox),
    ...discountWorkflows(outbox),
    ...sequenceWorkflows(client),
  };
}
