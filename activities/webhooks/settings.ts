import { parseCidrList, type Cidr } from '../../domain/shared/ip-ranges.ts';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../domain/shared/webhooks.ts';
import type { Resolver, WebhookTransport } from './transport.ts';

/** Delivery settings, from `WEBHOOK_*` (domain/shared/config.ts); tests pass short schedules and fakes. */
export interface WebhookSettings {
  /** `WEBHOOK_PRIVATE_ALLOWLIST`: private ranges that may still be reached (local receivers in tests). */
  allowlist: Cidr[];
  /** Waits before the 2nd, 3rd, ... attempt, in ms (`WEBHOOK_RETRY_SCHEDULE`). */
  retrySchedule: number[];
  /** `WEBHOOK_TIMEOUT_MS`: a 2xx must arrive within this. */
  timeoutMs: number;
  transport?: WebhookTransport;
  resolve?: Resolver;
  /** Source of the retry jitter, in [0, 1). */
  random?: () => number;
}

export function webhookSettingsFrom(env: { WEBHOOK_PRIVATE_ALLOWLIST?: string; WEBHOOK_RETRY_SCHEDULE?: string; WEBHOOK_TIMEOUT_MS?: number }): WebhookSettings {
  return {
    allowlist: parseCidrList(env.WEBHOOK_PRIVATE_ALLOWLIST),
    retrySchedule: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE),
    timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 10_000,
  };
}
