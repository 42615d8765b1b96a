/** Inputs of the shared workflows other workflows start as children, by type name. */

export interface DeliverWebhookInput {
  platformId: string;
  webhookId: string;
  eventId: string;
  /** A manual redelivery: one attempt, no retries (`POST .../deliveries/:id/redeliver`). */
  manual?: boolean;
}

/** Type name -> arguments. */
export interface SharedChildWorkflows {
  deliverWebhook: [DeliverWebhookInput];
}
