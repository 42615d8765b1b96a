/**
 * Rules of webhook delivery (spec: Webhook, Events; docs/decisions/ "Webhooks"). Pure code: the
 * delivery activities and the configuration routes share it.
 */
import type { DomainEventType } from './events.ts';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'disabled'] as const;
/**
 * `pending`: attempts under way or scheduled; `succeeded`: a 2xx arrived; `failed`: refused
 * (private address), out of attempts, or the receiver answered 410; `disabled`: the webhook was
 * switched off or deleted before the delivery succeeded, so nothing more is sent.
 */
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Delays before the 2nd, 3rd, ... attempt; the first goes at once. The Standard Webhooks schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) extended by 20 h and 24 h: 10 attempts over
 * 71 h 35 min 5 s, about three days. `WEBHOOK_RETRY_SCHEDULE` replaces it.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h,20h,24h';
/** Each delay is stretched or shortened by up to this share, so retries of many deliveries spread out. */
export const RETRY_JITTER = 0.1;
/** A receiver's `Retry-After` is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;
/** Page size of the delivery history (spec: Limits). */
export const DELIVERIES_PER_PAGE = 25;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** `"5s,5m,30m,2h"` (units ms, s, m, h, d; a bare number is milliseconds) into milliseconds. */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  return entries.map((entry) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(entry);
    if (!match) throw new Error(`not a delay: ${entry} (expected e.g. 500ms, 5s, 5m, 2h, 1d)`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!);
  });
}

/**
 * The wait before the next attempt after `attemptsMade` failed ones, or null when the schedule is
 * used up. `random` in [0, 1) gives the jitter (+-10 %); a `Retry-After` longer than the scheduled
 * wait is honoured (up to 24 h), a shorter one does not bring the attempt forward.
 */
export function nextAttemptDelayMs(p: { schedule: readonly number[]; attemptsMade: number; retryAfterMs: number | null; random: number }): number | null {
  const scheduled = p.schedule[p.attemptsMade - 1];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 + RETRY_JITTER * (2 * p.random - 1)));
  const asked = p.retryAfterMs === null ? 0 : Math.min(p.retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** What a webhook URL must be: absolute http(s), with a host, without user or password. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute http(s) URL';
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  return null;
}

export interface WebhookEnvelope<T extends string = DomainEventType> {
  /** A platform's domain event type, or a shop's event (domain/shop/webhooks.ts). */
  type: T;
  /** When the event happened (ISO 8601, UTC); the same on every attempt. */
  timestamp: string;
  /** The event's payload plus its id. */
  data: Record<string, unknown> & { id: string };
}

export function webhookEnvelope<T extends string>(event: { id: string; type: T; payload: Record<string, unknown>; occurredAt: string }): WebhookEnvelope<T> {
  return { type: event.type, timestamp: event.occurredAt, data: { id: event.id, ...event.payload } };
}

/** One webhook delivery to start: an event for a webhook subscribed to its type. */
export interface WebhookDeliveryStart {
  webhookId: string;
  eventId: string;
}

/** Every (event, subscribed webhook) pair, events in their order, webhooks in the given order. */
export function webhookDeliveriesFor(
  events: readonly { id: string; type: DomainEventType }[],
  webhooks: readonly { webhookId: string; events: readonly DomainEventType[] }[],
): WebhookDeliveryStart[] {
  return events.flatMap((event) => webhooks.filter((w) => w.events.includes(event.type)).map(({ webhookId }) => ({ webhookId, eventId: event.id })));
}

/**
 * Why a delivery cannot be redelivered now (a 409), or null: its webhook must be active and not
 * deleted, and the delivery over (a pending one is being delivered).
 */
export function redeliveryRefusal(webhook: { active: boolean; deleted: boolean; name?: string }, status: WebhookDeliveryStatus): string | null {
  const what = webhook.name ?? 'the webhook';
  if (webhook.deleted) return `${what} is deleted`;
  if (!webhook.active) return `${what} is not active; activate it before redelivering`;
  if (status === 'pending') return 'the delivery is still pending';
  return null;
}
