/**
 * The shop workflows' inputs, apart from their code: a workflow that starts another as a child
 * names it by type (`startChildOnce('clearOrder', ...)`) and imports only these types, so no
 * workflow module imports another (test/unit/workflow-contracts.test.ts checks the names and
 * argument types against workflows/index.ts).
 */
import type { MailSequenceRun, SequenceRecipient } from '../../activities/shop/mail-sequences.ts';
import type { ShopWebhookEvent } from '../../domain/shop/webhooks.ts';
import type { OrderRef } from './steps/run-effect.ts';

export interface ClearOrderInput {
  shopId: string;
  orderId: number;
}

export interface ChangeOrderStatusInput {
  shopId: string;
  orderId: number;
  /** The recorded status change: the key of this run's effects. */
  changeId: number;
  statusId: number;
}

export interface AutomaticOrderStatusInput {
  shopId: string;
  orderId: number;
  fromStatusId: number;
  /** The change that put the order at `fromStatusId` when the timer was planned (null: none recorded). */
  expectedChangeId: number | null;
  toStatusId: number;
  /** ISO instant the status is due. */
  dueAt: string;
}

export interface OrderPlacedInput {
  shopId: string;
  orderId: number;
}

export interface SubscriberRenewalInput {
  shopId: string;
  subscriberId: number;
  /** The first run after activation sends the activation mail (when the plan says so). */
  activated?: boolean;
}

export type { MailSequenceRun, SequenceRecipient };

export interface DeliverShopWebhookInput extends OrderRef {
  webhookId: string;
  type: ShopWebhookEvent;
  /** The event's id (`webhook-id`), the same for every webhook the event goes to. */
  eventId: string;
  /** When the event happened (ISO 8601): the body's `timestamp`. */
  occurredAt: string;
  /** The delivery, when the transition opened it already (the clearing's one step, issue 26 item 1); else the workflow opens it. */
  deliveryId?: string;
  /** The first attempt was made by the workflow that raised the event (with `deliveryId`): the next is due after this wait. */
  nextAttemptInMs?: number;
}

export interface DeliverClubWebhookInput {
  shopId: string;
  deliveryId: string;
  /** A manual redelivery: one attempt, no retries (`POST .../club/deliveries/:id/redeliver`). */
  manual?: boolean;
  /** The first attempt was made by the clearing (its outside activity): the next is due after this wait. */
  nextAttemptInMs?: number;
}

/** The shop workflows other workflows start as children: type name -> arguments. */
export interface ShopChildWorkflows {
  clearOrder: [ClearOrderInput];
  orderPlaced: [OrderPlacedInput];
  changeOrderStatus: [ChangeOrderStatusInput];
  automaticOrderStatus: [AutomaticOrderStatusInput];
  subscriberRenewal: [SubscriberRenewalInput];
  mailSequence: [MailSequenceRun];
  deliverShopWebhook: [DeliverShopWebhookInput];
  deliverClubWebhook: [DeliverClubWebhookInput];
}
