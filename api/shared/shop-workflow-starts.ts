import type { Client } from '@temporalio/client';
import { clearOrderWorkflowId, mailSequenceWorkflowId, orderPlacedWorkflowId, orderStatusWorkflowId, statusTestMailsWorkflowId } from '../../domain/shop/workflow-ids.ts';
import type { ChangeOrderStatusInput, ClearOrderInput, MailSequenceRun, OrderPlacedInput } from '../../workflows/shop/contracts.ts';
import type * as workflows from '../../workflows/index.ts';
import { discountWorkflows } from './discount-workflows.ts';
import type { StartOnce } from './start-once.ts';
import { subscriberWorkflows } from './subscriber-workflows.ts';

/**
 * The shop's workflows as the api starts and signals them (`app.workflows.shop`), each with its
 * business id and start policy: one-shot starts (a repeat joins the first), the subscribers'
 * renewal runs and the time-limited discounts' price runs.
 */
export function shopWorkflowStarts(client: Client, taskQueue: string, startOnce: StartOnce) {
  return {
    /** The clearing's effects; a repeated clearing (or a Stripe event after it) joins, or re-runs as a no-op, the same run. */
    clearOrder(order: ClearOrderInput) {
      return startOnce('clearOrder', clearOrderWorkflowId(order), [order]);
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
    mailSequence(run: MailSequenceRun) {
      return startOnce('mailSequence', mailSequenceWorkflowId(run), [run]);
    },
    /** The test mails of one checked request (`shop/<s>/status-test-mails/<request>`). */
    sendOrderStatusTestMails(input: Parameters<typeof workflows.sendOrderStatusTestMails>[0]) {
      return startOnce('sendOrderStatusTestMails', statusTestMailsWorkflowId(input), [input]);
    },
    ...subscriberWorkflows(client, taskQueue),
    ...discountWorkflows(client, taskQueue),
  };
}
