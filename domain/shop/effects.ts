/**
 * The side effects of an order's transitions (DESIGN.md sections 7 and 8), each recorded in the
 * order's effect log once per transition (`source`: `clear`, or `status:<change id>`) and target.
 */
export const ORDER_EFFECTS = [
  'status_mail',
  'webhook',
  'club_webhook',
  'mail_sequence',
  'invoice',
  'marketing_tags',
  'subscription',
  'analytics_purchase',
  'download_codes',
  'course_access',
] as const;
export type OrderEffectName = (typeof ORDER_EFFECTS)[number];

export type EffectStatus = 'done' | 'failed' | 'skipped';

export interface EffectOutcome {
  status: EffectStatus;
  detail: string;
}

/**
 * What an effect that may talk to the outside answers when asked in a local step first
 * (`localFirst`, issue 26 item 1) and it has to go out: nothing is recorded yet, the workflow
 * hands the effect to its retried activity.
 */
export interface HandOn {
  handOn: true;
}

export const HAND_ON: HandOn = { handOn: true };

export const isHandOn = (answer: EffectOutcome | HandOn): answer is HandOn => 'handOn' in answer;

export const done = (detail: string): EffectOutcome => ({ status: 'done', detail });
export const skipped = (detail: string): EffectOutcome => ({ status: 'skipped', detail });

/**
 * The effect log's key of one transition: the clearing, the effects of the Paid status the
 * clearing sets (`clear:paid`: its status mail and `order_status_changed` webhooks, beside the
 * clearing's own), one status change, or a zero-total order's fulfilment at placing (`placed`).
 */
export type EffectSource = 'clear' | 'clear:paid' | 'placed' | `status:${number}`;

export const statusSource = (changeId: number): EffectSource => `status:${changeId}`;
