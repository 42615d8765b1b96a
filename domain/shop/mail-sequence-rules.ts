/**
 * Rules of the shop's mail sequences (spec: Mail sequence, Endpoints > Mail sequences): the timing
 * of the messages, the trigger table, the recipient's discount code, and which orders start a
 * sequence. Pure: no clock, no database.
 */
import { zoneOffsetMinutes } from '../shared/time-zones.ts';

/**
 * `offset_unit` (DESIGN.md section 8): how `offset_amount` counts from the trigger. Minutes and
 * hours are exact durations; days are calendar days in the shop's time zone, sent at the
 * sequence's `sending_time`.
 */
export const OFFSET_UNITS = ['minutes', 'hours', 'days'] as const;
export type OffsetUnit = (typeof OFFSET_UNITS)[number];

/** The largest offset of one message, whatever its unit: ten years. */
export const MAX_OFFSET: Record<OffsetUnit, number> = { minutes: 5_256_000, hours: 87_600, days: 3_650 };

export interface ItemTiming {
  offsetAmount: number;
  offsetUnit: OffsetUnit;
}

const MINUTE_MS = 60_000;
const UNIT_MS: Record<Exclude<OffsetUnit, 'days'>, number> = { minutes: MINUTE_MS, hours: 60 * MINUTE_MS };

/** `days_offset`: the whole days of a day offset; 0 for minutes and hours. */
export function daysOffset({ offsetAmount, offsetUnit }: ItemTiming): number {
  return offsetUnit === 'days' ? offsetAmount : 0;
}

/** `offset_hours`: the offset in whole hours (days count 24, minutes are rounded down). */
export function offsetHours({ offsetAmount, offsetUnit }: ItemTiming): number {
  if (offsetUnit === 'days') return offsetAmount * 24;
  if (offsetUnit === 'hours') return offsetAmount;
  return Math.floor(offsetAmount / 60);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `schedule`: the timing as a sentence, e.g. "2 days after the trigger, at 09:00 (Europe/Warsaw)". */
export function scheduleSentence({ offsetAmount, offsetUnit }: ItemTiming, sendingTime: string, timeZone: string): string {
  if (offsetUnit === 'days') {
    const at = `at ${sendingTime} (${timeZone})`;
    return offsetAmount === 0 ? `on the day of the trigger, ${at}, or at once when that time has passed` : `${plural(offsetAmount, 'day', 'days')} after the trigger, ${at}`;
  }
  if (offsetAmount === 0) return 'immediately after the trigger';
  return `${offsetUnit === 'hours' ? plural(offsetAmount, 'hour', 'hours') : plural(offsetAmount, 'minute', 'minutes')} after the trigger`;
}

/** `HH:MM`, 00:00 to 23:59. */
export const SENDING_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The calendar day (`YYYY-MM-DD`) of `instant` in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Date(instant.getTime() + zoneOffsetMinutes(instant, timeZone) * MINUTE_MS).toISOString().slice(0, 10);
}

/**
 * The instant of the wall-clock time `HH:MM` on `day` in `timeZone`. Across a DST change the
 * offsets a day before and a day after differ: a time that exists twice (clocks set back) is its
 * first instant; a time that does not exist (clocks set forward) moves forward by the change
 * (02:30 on a day that jumps from 02:00 to 03:00 is 03:30), in every zone, east or west of UTC.
 */
export function instantAt(day: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  const before = zoneOffsetMinutes(new Date(wall - 86_400_000), timeZone);
  const after = zoneOffsetMinutes(new Date(wall + 86_400_000), timeZone);
  const reads = (instant: number) => zoneOffsetMinutes(new Date(instant), timeZone) * MINUTE_MS + instant === wall;
  const [early, late] = [wall - Math.max(before, after) * MINUTE_MS, wall - Math.min(before, after) * MINUTE_MS];
  if (reads(early)) return new Date(early);
  if (reads(late)) return new Date(late);
  // In the gap: the offset before the change, which the clocks had not left yet at that wall time.
  return new Date(wall - before * MINUTE_MS);
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * When one message goes: minutes and hours after the trigger; for days, the calendar day that many
 * days after the trigger's day (shop's zone) at `sendingTime`, never before the trigger (a day-0
 * message whose time has passed goes at once).
 */
export function sendInstant(triggeredAt: Date, timing: ItemTiming, sendingTime: string, timeZone: string): Date {
  if (timing.offsetUnit !== 'days') return new Date(triggeredAt.getTime() + timing.offsetAmount * UNIT_MS[timing.offsetUnit]);
  const at = instantAt(addDays(dayIn(triggeredAt, timeZone), timing.offsetAmount), sendingTime, timeZone);
  return at < triggeredAt ? triggeredAt : at;
}

/** The trigger settings of a sequence (spec: trigger table), as stored. */
export interface SequenceTriggers {
  statusId: number | null;
  productsDependent: boolean;
  productIds: number[];
  discountCodeId: number | null;
  subscriptionPlanId: number | null;
  newsletterSubscription: boolean;
  firstSubscriptionEntry: boolean;
}

/** The fields of `triggers` a PATCH sent; absent ones stay. */
export type TriggerPatch = Partial<SequenceTriggers>;

export type FieldProblems = Record<string, string[]>;

/**
 * The triggers after a PATCH, or the problems (keys are `triggers.<field>`) by rule 3:
 * `status_id: null` also clears the product and code narrowing; `products_dependent: false` clears
 * the product list; `product_ids` is the complete new list, non-empty, and only with
 * `products_dependent` true; the narrowings and `products_dependent` need a status;
 * `first_subscription_entry` needs a plan. Whether the ids belong to the shop is checked elsewhere.
 */
export function applyTriggerPatch(current: SequenceTriggers, patch: TriggerPatch): { triggers: SequenceTriggers; problems: FieldProblems } {
  const problems: FieldProblems = {};
  const problem = (field: string, message: string) => (problems[`triggers.${field}`] ??= []).push(message);
  const next: SequenceTriggers = { ...current, productIds: [...current.productIds] };
  for (const key of Object.keys(patch) as (keyof SequenceTriggers)[]) {
    if (patch[key] !== undefined) Object.assign(next, { [key]: patch[key] });
  }
  if (patch.statusId === null) {
    if (patch.productsDependent === true) problem('products_dependent', 'needs status_id');
    if (patch.discountCodeId !== undefined && patch.discountCodeId !== null) problem('discount_code_id', 'needs status_id');
    Object.assign(next, { productsDependent: false, productIds: [], discountCodeId: null });
  } else {
    if (next.productsDependent && next.statusId === null) problem('products_dependent', 'needs status_id');
    if (next.discountCodeId !== null && next.statusId === null) problem('discount_code_id', 'needs status_id');
  }
  if (patch.productIds !== undefined) {
    if (patch.productIds.length === 0) problem('product_ids', 'must not be empty (set products_dependent false instead)');
    if (!next.productsDependent) problem('product_ids', 'works only with products_dependent true');
  } else if (patch.productsDependent === false) {
    next.productIds = [];
  } else if (next.productsDependent && next.productIds.length === 0) {
    problem('product_ids', 'is required with products_dependent true');
  }
  if (next.firstSubscriptionEntry && next.subscriptionPlanId === null) problem('first_subscription_entry', 'needs subscription_plan_id');
  return { triggers: next, problems };
}

/**
 * `recipient_discount_code.type`: the kind of the fresh single-use code each recipient gets.
 * `value` is the percent (1 to 100) for `percentage_discount`, the gross amount off the order for
 * `value_discount`, and absent for `free_delivery_discount`.
 */
export const RECIPIENT_CODE_TYPES = ['percentage_discount', 'value_discount', 'free_delivery_discount'] as const;
export type RecipientCodeType = (typeof RECIPIENT_CODE_TYPES)[number];

export interface RecipientDiscountCode {
  enabled: boolean;
  type: RecipientCodeType;
  /** Decimal string; null for free delivery. */
  value: string | null;
  /** Days the code stays valid from its creation; null: no end. */
  validityDays: number | null;
  /** Products the code applies to; empty: every product. */
  productIds: number[];
}

export const DEFAULT_RECIPIENT_CODE: RecipientDiscountCode = { enabled: false, type: 'percentage_discount', value: null, validityDays: null, productIds: [] };

/** Problems (keys `recipient_discount_code.<field>`) of the settings after a write; none when disabled. */
export function recipientCodeProblems(code: RecipientDiscountCode): FieldProblems {
  const problems: FieldProblems = {};
  if (!code.enabled) return problems;
  const field = (name: string, message: string) => (problems[`recipient_discount_code.${name}`] ??= []).push(message);
  if (code.type === 'free_delivery_discount') {
    if (code.value !== null) field('value', 'must be empty for free_delivery_discount');
  } else if (code.value === null) {
    field('value', `is required for ${code.type}`);
  } else if (Number(code.value) <= 0 || (code.type === 'percentage_discount' && Number(code.value) > 100)) {
    field('value', code.type === 'percentage_discount' ? 'must be a percent above 0 and at most 100' : 'must be above 0');
  }
  return problems;
}

/** What the trigger check knows of an order that reached a status. */
export interface OrderTriggerFacts {
  statusId: number;
  productIds: number[];
  discountCodeId: number | null;
  /** Whether the buyer had no earlier placed order in the shop. */
  firstPurchase: boolean;
}

/** Whether an order reaching `facts.statusId` starts the sequence (status, product and code narrowing, first purchase). */
export function orderStartsSequence(sequence: { triggers: SequenceTriggers; onlyFirstPurchase: boolean }, facts: OrderTriggerFacts): boolean {
  const { triggers } = sequence;
  if (triggers.statusId === null || triggers.statusId !== facts.statusId) return false;
  if (triggers.productsDependent && !facts.productIds.some((id) => triggers.productIds.includes(id))) return false;
  if (triggers.discountCodeId !== null && triggers.discountCodeId !== facts.discountCodeId) return false;
  return !sequence.onlyFirstPurchase || facts.firstPurchase;
}

/** What started one recipient's run of a sequence; re-checked before every message. */
export type SequenceTrigger = { kind: 'order_status'; statusId: number; orderId: number } | { kind: 'newsletter' } | { kind: 'subscription_entry'; subscriptionPlanId: number };

/** Whether the sequence still has the trigger that started a run (a removed trigger stops pending sends). */
export function triggerStillSet(triggers: SequenceTriggers, trigger: SequenceTrigger): boolean {
  if (trigger.kind === 'order_status') return triggers.statusId === trigger.statusId;
  if (trigger.kind === 'newsletter') return triggers.newsletterSubscription;
  return triggers.firstSubscriptionEntry && triggers.subscriptionPlanId === trigger.subscriptionPlanId;
}

/** Whether a template shows `{{name}}` (spaces inside the braces allowed, as fillTags reads them). */
export function usesTag(template: string, name: string): boolean {
  return new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`).test(template);
}
