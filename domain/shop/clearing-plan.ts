import type { EffectOutcome, EffectSource, HandOn, OrderEffectName } from './effects.ts';
import type { ShopWebhookEvent } from './webhooks.ts';

/**
 * How a part of the clearing runs. `database`: inside the clearing's one database transaction
 * (activities/shop/clearing-step.ts), each isolated from the others (a savepoint once one failed); what it opened (deliveries, an access
 * order, sequences, subscribers, timers) the workflow then starts. `outside`: it may call the
 * outside world; the transaction only asks whether there is anything to send (nothing configured:
 * recorded there) and hands it to its retried activity.
 */
export type ClearingPartKind = 'database' | 'outside';

export interface ClearingPartPlan {
  kind: ClearingPartKind;
  /** Its effect-log entry; null: none of its own (timers; webhooks have one entry per webhook). */
  effect: OrderEffectName | null;
  /** Whose entry it is: the order's clearing, or the change to the Paid status the clearing makes. */
  source: Extract<EffectSource, 'clear' | 'clear:paid'>;
  /** The parts it comes after (always earlier in `CLEARING_PARTS`). */
  waitsFor: readonly ClearingPart[];
  /** The webhooks' event, and which of the clearing's events (ids, times) it is. */
  webhooks?: { type: ShopWebhookEvent; event: 'cleared' | 'paid' };
}

/** The parts of a clearing, in the order its one database step runs them. */
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

/**
 * What a clearing does (Order: placed, unpaid -> placed, paid; DESIGN.md sections 7 and 10), part
 * by part. The workflow (workflows/shop/steps/clear-in-one-step.ts)
 * and the step follow this plan; each has one entry per part (its run), so adding an effect is its
 * entry here, its part in both, its activity and its tests.
 */
export const CLEARING_PLAN = {
  invoice: { kind: 'database', effect: 'invoice', source: 'clear', waitsFor: [] },
  download_codes: { kind: 'database', effect: 'download_codes', source: 'clear', waitsFor: [] },
  analytics_purchase: { kind: 'outside', effect: 'analytics_purchase', source: 'clear', waitsFor: [] },
  marketing_tags: { kind: 'outside', effect: 'marketing_tags', source: 'clear', waitsFor: [] },
  course_access: { kind: 'database', effect: 'course_access', source: 'clear', waitsFor: [] },
  mail_sequence: { kind: 'database', effect: 'mail_sequence', source: 'clear', waitsFor: [] },
  subscription: { kind: 'database', effect: 'subscription', source: 'clear', waitsFor: [] },
  automatic_statuses: { kind: 'database', effect: null, source: 'clear', waitsFor: [] },
  // The webhooks' bodies carry the invoice number.
  cleared_webhooks: { kind: 'database', effect: null, source: 'clear', waitsFor: ['invoice'], webhooks: { type: 'order_cleared', event: 'cleared' } },
  club_webhook: { kind: 'database', effect: 'club_webhook', source: 'clear', waitsFor: ['invoice'] },
  // The Paid status's mail holds the download links (`{{LINKI_DO_POBRANIA}}`).
  status_mail: { kind: 'outside', effect: 'status_mail', source: 'clear:paid', waitsFor: ['invoice', 'download_codes'] },
  paid_webhooks: { kind: 'database', effect: null, source: 'clear:paid', waitsFor: ['invoice', 'download_codes'], webhooks: { type: 'order_status_changed', event: 'paid' } },
} as const satisfies Record<ClearingPart, ClearingPartPlan>;

/** The parts that may talk to the outside: decided in the step when nothing is configured, else handed to their retried activity. */
export type OutsideClearingEffect = { [P in ClearingPart]: (typeof CLEARING_PLAN)[P]['kind'] extends 'outside' ? P : never }[ClearingPart];

/** The order, under an outside part's source; `localFirst`: only ask whether anything has to go out. */
export interface OutsideCallInput {
  shopId: string;
  orderId: number;
  source: EffectSource;
  localFirst?: boolean;
}

/** The order-effect activities the outside parts call: the functions (the step, the clearing's outside activity) or a workflow's proxies of them. */
export interface OutsideCalls {
  sendAnalyticsPurchase(input: OutsideCallInput): Promise<EffectOutcome | HandOn>;
  tagCustomer(input: OutsideCallInput): Promise<EffectOutcome | HandOn>;
  sendStatusMail(input: OutsideCallInput & { statusId: number | null }): Promise<EffectOutcome | HandOn>;
}

/** The call of an outside part (the status mail: the Paid status's, which the clearing sets). */
export function callOutside(calls: OutsideCalls, part: OutsideClearingEffect, at: OutsideCallInput): Promise<EffectOutcome | HandOn> {
  switch (part) {
    case 'analytics_purchase':
      return calls.sendAnalyticsPurchase(at);
    case 'marketing_tags':
      return calls.tagCustomer(at);
    case 'status_mail':
      return calls.sendStatusMail({ ...at, statusId: null });
  }
}

/** The parts that open webhook deliveries, and their event. */
export type WebhooksPart = { [P in ClearingPart]: (typeof CLEARING_PLAN)[P] extends { webhooks: object } ? P : never }[ClearingPart];
export const webhooksOf = (part: WebhooksPart): { type: ShopWebhookEvent; event: 'cleared' | 'paid' } => CLEARING_PLAN[part].webhooks;

/** The plan of a part. */
export const planOf = (part: ClearingPart): ClearingPartPlan => CLEARING_PLAN[part];

/** A part left to the workflow's own steps (its failure may pass with a retry) takes every part that waits for it along. */
export function waitsForDeferred(part: ClearingPart, deferred: ReadonlySet<ClearingPart>): boolean {
  return planOf(part).waitsFor.some((before) => deferred.has(before));
}

/** The effect-log entry of a part, for a failure no retry can change (recorded `failed`); null for the parts without one. */
export function effectOfPart(part: ClearingPart): OrderEffectName | null {
  return planOf(part).effect;
}
