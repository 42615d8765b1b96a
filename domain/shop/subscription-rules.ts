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

/**
 * Problems of a plan's product links, keyed by field (`products`): a product twice, an interval
 * outside 1..36500 days, a negative renewal limit.
 */
export function planLinkProblems(links: readonly PlanLink[]): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  links.forEach((link, index) => {
    if (seen.has(link.product_id)) problems.push(`[${index}].product_id: product ${link.product_id} is linked twice`);
    seen.add(link.product_id);
    if (!Number.isInteger(link.interval) || link.interval < 1 || link.interval > MAX_INTERVAL_DAYS) {
      problems.push(`[${index}].interval: must be a whole number of days from 1 to ${MAX_INTERVAL_DAYS}`);
    }
    if (!Number.isInteger(link.renewals_limit) || link.renewals_limit < 0) {
      problems.push(`[${index}].renewals_limit: must be a whole number, 0 or more (0 means no limit)`);
    }
  });
  return problems;
}

/** A plan cannot supersede itself. */
export function supersededPlanProblem(planId: number | null, supersededId: number | null): string | null {
  return planId !== null && supersededId === planId ? 'a plan cannot supersede itself' : null;
}

/** The products of `wanted` that already sit in another automatic-renewal plan. */
export function productsInOtherAutomaticPlans(wanted: readonly number[], automaticLinks: readonly { productId: number; planId: number }[], planId: number | null): number[] {
  const taken = new Set(automaticLinks.filter((link) => link.planId !== planId).map((link) => link.productId));
  return [...new Set(wanted)].filter((id) => taken.has(id));
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

/** Which workflow signals a committed subscriber PATCH sends (renewal_paused only when it changed). */
export interface SubscriberChange {
  pausedBefore: boolean;
  pausedAfter: boolean;
  itemsSent: boolean;
  intervalSent: boolean;
}
export type SubscriberSignal = 'paused' | 'resumed' | 'itemsChanged';

export function signalsFor(change: SubscriberChange): SubscriberSignal[] {
  const signals: SubscriberSignal[] = [];
  if (!change.pausedBefore && change.pausedAfter) signals.push('paused');
  if (change.pausedBefore && !change.pausedAfter) signals.push('resumed');
  if (change.itemsSent || change.intervalSent) signals.push('itemsChanged');
  return signals;
}
