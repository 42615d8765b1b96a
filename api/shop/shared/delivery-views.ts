import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';

/**
 * A delivery history of the shop's webhooks (a shop webhook's, the club webhook's): one delivery per
 * order transition with its attempts, newest first, as the platform's (api/configuration/webhooks).
 */
const AttemptReply = z.object({
  attempted_at: z.iso.datetime(),
  status_code: z.number().nullable().describe('HTTP status of the reply; null when none came (network error, timeout, refused address)'),
  duration_ms: z.number(),
  error: z.string().nullable(),
  manual: z.boolean().describe('a manual redelivery rather than the retry schedule'),
});

export const orderDeliveryReply = <T extends readonly [string, ...string[]]>(eventTypes: T) =>
  z.object({
    id: z.uuid(),
    event_id: z.uuid().describe('also the `webhook-id` header of every attempt'),
    event_type: z.enum(eventTypes),
    order_id: z.number().nullable(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt_count: z.number(),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    attempts: z.array(AttemptReply).describe('newest first'),
  });

interface DeliveryRow<E extends string> {
  id: string;
  eventId: string;
  eventType: E;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  nextAttemptAt?: Date | null;
  createdAt: Date;
}
interface AttemptRow {
  delivery: { id: string };
  attemptedAt: Date;
  statusCode?: number | null;
  durationMs: number;
  error?: string | null;
  manual: boolean;
}

/** The deliveries with their attempts; `orderOf` names each delivery's order. */
export function orderDeliveryViews<D extends DeliveryRow<string>>(deliveries: readonly D[], attempts: readonly AttemptRow[], orderOf: (d: D) => number | null) {
  return deliveries.map((d) => ({
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType as D['eventType'],
    order_id: orderOf(d),
    status: d.status,
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempts: attempts
      .filter((a) => a.delivery.id === d.id)
      .map((a) => ({ attempted_at: a.attemptedAt.toISOString(), status_code: a.statusCode ?? null, duration_ms: a.durationMs, error: a.error ?? null, manual: a.manual })),
  }));
}
