/** Inputs of the shared workflows other workflows start as children, by type name. */
import type { DeliverMailInput } from '../../activities/mail/delivery.ts';
import type { ErasureRef } from '../../activities/shared/personal-data.ts';

export interface DeliverWebhookInput {
  platformId: string;
  webhookId: string;
  eventId: string;
  /** A manual redelivery: one attempt, no retries (`POST .../deliveries/:id/redeliver`). */
  manual?: boolean;
  /** The delivery, opened and attempted once by the workflow that raised the event: the next attempt is due after `nextAttemptInMs`. */
  deliveryId?: string;
  nextAttemptInMs?: number;
}

export type { DeliverMailInput };

/** One `customer_erased` event to one shop webhook, for one round (`generation`) of an erasure. */
export interface DeliverCustomerErasedInput extends ErasureRef {
  webhookId: string;
  generation: number;
  eventId: string;
  occurredAt: string;
}

/** Type name -> arguments. */
export interface SharedChildWorkflows {
  deliverWebhook: [DeliverWebhookInput];
  mailDelivery: [DeliverMailInput];
  deliverCustomerErased: [DeliverCustomerErasedInput];
}
