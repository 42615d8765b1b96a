import type { OrderEffectName } from './effects.ts';

/**
 * The parts of a clearing (workflows/shop/clear-order.ts), in the order its one database step
 * runs them (issue 26 item 1): each is one effect of the effect log, apart from the automatic
 * statuses (timers, no log entry) and the webhooks of each event (one entry per webhook).
 */
export const CLEARING_PARTS = [
  'invoice',
  'download_codes',
  'analytics_purchase',
  'marketing_tags',
  'course_access',
  'mail_sequence',
  'subscription',
  'automatic_statuses',
  'cleared_webhooks',
  'club_webhook',
  'status_mail',
  'paid_webhooks',
] as const;
export type ClearingPart = (typeof CLEARING_PARTS)[number];

/** The effects that may talk to the outside: decided in the step when nothing is configured, else handed to their retried activity. */
export type OutsideClearingEffect = 'analytics_purchase' | 'marketing_tags' | 'status_mail';

/**
 * What a part waits for: the webhooks' bodies carry the invoice number; the Paid status's mail
 * (`{{LINKI_DO_POBRANIA}}`) and its `order_status_changed` webhooks come after the download codes too.
 */
const WAITS_FOR: Partial<Record<ClearingPart, readonly ClearingPart[]>> = {
  cleared_webhooks: ['invoice'],
  club_webhook: ['invoice'],
  status_mail: ['invoice', 'download_codes'],
  paid_webhooks: ['invoice', 'download_codes'],
};

/** A part left to the workflow's own steps (its failure may pass with a retry) takes every part that waits for it along. */
export function waitsForDeferred(part: ClearingPart, deferred: ReadonlySet<ClearingPart>): boolean {
  return (WAITS_FOR[part] ?? []).some((before) => deferred.has(before));
}

/** The effect-log entry of a part, for a failure no retry can change (recorded `failed`); null for the parts without one. */
export function effectOfPart(part: ClearingPart): OrderEffectName | null {
  return part === 'automatic_statuses' || part === 'cleared_webhooks' || part === 'paid_webhooks' ? null : part;
}
