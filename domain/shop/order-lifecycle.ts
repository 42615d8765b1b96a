import type { InternalStatus } from './order.ts';
import type { OrderStatusKind } from './order-statuses.ts';
import { DEFAULT_TIME_ZONE, startOfDayIn } from '../shared/time-zones.ts';

/**
 * The life of an order after placing (issue 22, docs/decisions/): which internal status a
 * status change gives, what a placement keeps of the buyer's address, which lines an automatic
 * invoice holds, and the identifiers of a subscription line's units.
 */

/**
 * The order's `internal_status` once it reaches a status of this kind: the built-in Canceled and
 * Returned statuses make it `canceled` and `returned`; every other status (an owner moving it on)
 * makes it `placed` again.
 */
export function internalStatusAt(kind: OrderStatusKind): InternalStatus {
  if (kind === 'CanceledDefaultOrderStatus') return 'canceled';
  if (kind === 'ReturnedDefaultOrderStatus') return 'returned';
  return 'placed';
}

/** Whether an order at this internal status still holds what its payment bought (codes, access, subscription). */
export const isLive = (status: InternalStatus): boolean => status === 'placed';

/** Orders placed before this day (in the shop's time zone) have no `placed_ip` (spec: Order detail), whatever an import sends. */
export const PLACED_IP_SINCE_DAY = '2026-09-29';

/** `timeZone`: the shop's; the cutoff is its local midnight of 29.09.2026. */
export function storedPlacedIp(ip: string | null | undefined, placedAt: Date, timeZone = DEFAULT_TIME_ZONE): string | null {
  return placedAt.getTime() < startOfDayIn(PLACED_IP_SINCE_DAY, timeZone).getTime() ? null : (ip ?? null);
}

/** A zero-total order needs no clearing: it is fulfilled when placed. */
export const needsNoClearing = (total: string | number): boolean => Number(total) <= 0;

/** The lines an automatic invoice holds: every line but those of `no_invoice` products (a line whose product is gone stays). */
export function invoicedLines<L extends { productId?: number | null }>(lines: readonly L[], noInvoiceProductIds: ReadonlySet<number>): L[] {
  return lines.filter((line) => line.productId == null || !noInvoiceProductIds.has(line.productId));
}

/**
 * The `subscriber_identifiers` of a subscription line: one per unit, distinct. A single unit
 * carries the subscriber's `service_ref` itself; unit n of several `<service_ref>-<n>`.
 */
export function unitIdentifiers(serviceRef: string, quantity: number): string[] {
  if (quantity <= 1) return [serviceRef];
  return Array.from({ length: quantity }, (_, i) => `${serviceRef}-${i + 1}`);
}

/**
 * The identifiers of a subscriber's lines of one order: the units of all its lines numbered
 * together (`unitIdentifiers` of the total), handed out line by line in order, so two lines of
 * the same product never share one.
 */
export function lineIdentifiers(serviceRef: string, lines: readonly { id: number; quantity: number }[]): Map<number, string[]> {
  const all = unitIdentifiers(serviceRef, lines.reduce((sum, line) => sum + line.quantity, 0));
  const byLine = new Map<number, string[]>();
  let next = 0;
  for (const line of lines) {
    byLine.set(line.id, all.slice(next, next + line.quantity));
    next += line.quantity;
  }
  return byLine;
}
