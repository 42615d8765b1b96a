/**
 * Pure rules of subscription plans and subscribers (spec: Subscription plan, Subscriber, the PATCH
 * rules of Endpoints / Subscribers, Limits).
 */

export const EXTENSION_STRATEGIES = ['immediate', 'continuous'] as const;
export type ExtensionStrategy = (typeof EXTENSION_STRATEGIES)[number];

/** `active` while renewing or paused; `expired` when a period ran out unpaid; `ended` by a superseding plan or the renewal limit. */
export const SUBSCRIBER_STATUSES = ['active', 'expired', 'ended'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const PERIOD_KINDS = ['initial', 'renewal'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

/** A link's interval and the period horizon (spec: Limits). */
export const MAX_INTERVAL_DAYS = 36_500;
export const PERIOD_HORIZON_DAYS = 36_500;
const DAY_MS = 86_400_000;

/** One renewal item as stored: `price` null means the catalogue price at charge time. */
export interface RenewalItem {
  product_id: number;
  quantity: number;
  price: string | null;
}

export type PriceSource = 'override' | 'catalogue';

/** A renewal item as replied: an omitted price shows the current catalogue price with `price_source: catalogue`. */
export interface RenewalItemView {
  product_id: number;
  quantity: number;
  price: string | null;
  price_source: PriceSource;
}

export function renewalItemView(item: RenewalItem, cataloguePrices: ReadonlyMap<number, string>): RenewalItemView {
  if (item.price !== null) return { ...item, price_source: 'override' };
  return { ...item, price: cataloguePrices.get(item.product_id) ?? null, price_source: 'catalogue' };
}

export interface PlanLink {
  product_id: number;
  interval: number;
  renewals_limit: number;
}

/** A rule broken by one field of a write, `field` named as sent (`products.1.interval`). */
export interface FieldProblem {
  field: string;
  message: string;
}

const INT4_MAX = 2_147_483_647;
const isWhole = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/** A link's interval: 1 to 36500 days (spec: Limits). */
export function intervalProblem(days: number): string | null {
  return isWhole(days, 1, MAX_INTERVAL_DAYS) ? null : `must be a whole number of days from 1 to ${MAX_INTERVAL_DAYS}`;
}

/** Problems of a plan's product links: a product linked twice, an interval outside 1..36500, a negative renewal limit. */
export function planLinkProblems(links: readonly PlanLink[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  links.forEach((link, index) => {
    if (seen.has(link.product_id)) problems.push({ field: `products.${index}.product_id`, message: `product ${link.product_id} is linked twice` });
    seen.add(link.product_id);
    const interval = intervalProblem(link.interval);
    if (interval) problems.push({ field: `products.${index}.interval`, message: interval });
    if (!isWhole(link.renewals_limit, 0, INT4_MAX)) problems.push({ field: `products.${index}.renewals_limit`, message: 'must be a whole number, 0 or more (0 means no limit)' });
  });
  return problems;
}

/** A plan cannot supersede itself. */
export function supersededPlanProblem(planId: number | null, supersededId: number | null): string | null {
  return planId !== null && supersededId === planId ? 'a plan cannot supersede itself' : null;
}

export const MAX_RENEWAL_QUANTITY = 10_000;

/**
 * Problems of a new `renewal_items` list (PATCH rule 1): an explicitly empty list, a product twice,
 * a quantity outside 1..10000.
 */
export function renewalItemsProblems(items: readonly { product_id: number; quantity: number }[]): FieldProblem[] {
  if (items.length === 0) return [{ field: 'renewal_items', message: 'must hold at least one item (an empty list is refused)' }];
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  items.forEach((item, index) => {
    if (seen.has(item.product_id)) problems.push({ field: `renewal_items.${index}.product_id`, message: `product ${item.product_id} is listed twice` });
    seen.add(item.product_id);
    if (!isWhole(item.quantity, 1, MAX_RENEWAL_QUANTITY)) problems.push({ field: `renewal_items.${index}.quantity`, message: `must be a whole number from 1 to ${MAX_RENEWAL_QUANTITY}` });
  });
  return problems;
}

/**
 * Whether `activeUntil` may end the running period (PATCH rule 4): not before the period's start,
 * not beyond the horizon of 36500 days from `now`. Returns the problem, or null.
 */
export function periodEndProblem(activeUntil: Date, periodStart: Date, now: Date): string | null {
  if (activeUntil.getTime() < periodStart.getTime()) return `must not be before the running period's start (${periodStart.toISOString()})`;
  if (activeUntil.getTime() > now.getTime() + PERIOD_HORIZON_DAYS * DAY_MS) return `must be within ${PERIOD_HORIZON_DAYS} days from now`;
  return null;
}

/** The period the subscriber is active until: the one with the latest end (ties: the later id). */
export function latestPeriod<P extends { id: number; endsAt: Date }>(periods: readonly P[]): P | null {
  let latest: P | null = null;
  for (const period of periods) {
    if (!latest || period.endsAt.getTime() > latest.endsAt.getTime() || (period.endsAt.getTime() === latest.endsAt.getTime() && period.id > latest.id)) {
      latest = period;
    }
  }
  return latest;
}

/** A subscriber is active while its status is `active` and its latest period has not ended. */
export function subscriberIsActive(status: SubscriberStatus, latestEnd: Date | null, now: Date): boolean {
  return status === 'active' && latestEnd !== null && latestEnd.getTime() > now.getTime();
}

/**
 * The workflow signals a committed subscriber PATCH sends: the pause state whenever
 * `renewal_paused` was sent (so a repeated request heals a signal lost before), items changed when
 * `renewal_items` or `renewal_interval_days` was sent.
 */
export interface SubscriberPatchSent {
  renewalPaused?: boolean;
  itemsSent: boolean;
  intervalSent: boolean;
}
export type SubscriberSignal = 'paused' | 'resumed' | 'itemsChanged';

export function signalsFor(sent: SubscriberPatchSent): SubscriberSignal[] {
  const signals: SubscriberSignal[] = [];
  if (sent.renewalPaused !== undefined) signals.push(sent.renewalPaused ? 'paused' : 'resumed');
  if (sent.itemsSent || sent.intervalSent) signals.push('itemsChanged');
  return signals;
}
