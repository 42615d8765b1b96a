import { Counter, Registry } from 'prom-client';

/**
 * The worker's own counters (README "Metrics"), served with the Temporal SDK's runtime metrics at
 * the worker's `/metrics` (worker/metrics.ts). One registry per process: every activity of the
 * worker counts into it, local activities included.
 */
export const workerMetrics = new Registry();

export const orderEffects = new Counter({
  name: 'coursehub_order_effects_total',
  help: "Order effects recorded in an order's effect log, by effect and outcome (done, skipped, failed)",
  labelNames: ['effect', 'outcome'] as const,
  registers: [workerMetrics],
});

export const webhookAttempts = new Counter({
  name: 'coursehub_webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome (succeeded; retry: failed, another attempt is scheduled; failed: no attempt left or refused)',
  labelNames: ['outcome'] as const,
  registers: [workerMetrics],
});

export const renewalCharges = new Counter({
  name: 'coursehub_renewal_charges_total',
  help: 'Subscriber renewal charges made, by outcome (approved, declined; skipped: nothing charged, the subscriber or period changed)',
  labelNames: ['outcome'] as const,
  registers: [workerMetrics],
});

export const mails = new Counter({
  name: 'coursehub_mails_total',
  help: "Mail sending attempts, by sender (platform: a course platform's mail, shop: a shop's), transport and outcome (sent; recorded: no transport, kept in the mail log only; failed)",
  labelNames: ['sender', 'transport', 'outcome'] as const,
  registers: [workerMetrics],
});
