import type { EffectSource } from './effects.ts';
import { money } from '../shared/money.ts';

/**
 * Automatic status assignment (spec: Order status configuration, `automatically_set`; shape
 * documented in docs/decisions/). Set on status B, it reads: once an order reaches status
 * `automatically_set_after_status_id` (A), set B after the offset, when the conditions hold and the
 * order is still at A by the same change.
 */
export interface AutomaticStatusRule {
  automatically_set_after_status_id: number;
  automatically_set_offset_days: number;
  automatically_set_offset_hours: number;
  /** Only orders whose total is zero (free orders, which are never cleared). */
  automatically_set_if_total_zero: boolean;
  /** Only orders a buyer placed at the storefront (with a `placed_ip`), not panel orders or renewals. */
  automatically_set_only_for_shop_origin_orders: boolean;
}

export const MAX_OFFSET_DAYS = 3650;
export const MAX_OFFSET_HOURS = 8760;

const HOUR_MS = 60 * 60 * 1000;

/** The offset of a rule in milliseconds: days of 24 hours plus hours (absolute time, no calendar days). */
export function automaticOffsetMs(rule: Pick<AutomaticStatusRule, 'automatically_set_offset_days' | 'automatically_set_offset_hours'>): number {
  return (rule.automatically_set_offset_days * 24 + rule.automatically_set_offset_hours) * HOUR_MS;
}

/** The instant the status is due: the moment the order reached A plus the offset. */
export function automaticStatusDueAt(reachedAt: Date, rule: AutomaticStatusRule): Date {
  return new Date(reachedAt.getTime() + automaticOffsetMs(rule));
}

export interface AutomaticStatusOrder {
  total: string;
  placedIp: string | null;
}

/** Whether the rule's conditions admit the order. */
export function automaticRuleApplies(rule: AutomaticStatusRule, order: AutomaticStatusOrder): boolean {
  if (rule.automatically_set_if_total_zero && !money(order.total).isZero()) return false;
  if (rule.automatically_set_only_for_shop_origin_orders && !order.placedIp) return false;
  return true;
}

const nonNegativeInt = (value: unknown, max: number) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;

/** A stored rule (json) read defensively: null when it is not a complete rule. */
export function storedAutomaticRule(value: unknown): AutomaticStatusRule | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  const after = r.automatically_set_after_status_id;
  if (typeof after !== 'number' || !Number.isInteger(after) || after <= 0) return null;
  if (!nonNegativeInt(r.automatically_set_offset_days, MAX_OFFSET_DAYS) || !nonNegativeInt(r.automatically_set_offset_hours, MAX_OFFSET_HOURS)) return null;
  return {
    automatically_set_after_status_id: after,
    automatically_set_offset_days: r.automatically_set_offset_days as number,
    automatically_set_offset_hours: r.automatically_set_offset_hours as number,
    automatically_set_if_total_zero: r.automatically_set_if_total_zero === true,
    automatically_set_only_for_shop_origin_orders: r.automatically_set_only_for_shop_origin_orders === true,
  };
}

/** The statuses among `statuses` set automatically after `statusId`, with their rules (in the order given). */
export function automaticRulesAfterIn(statuses: readonly { id: number; automaticallySet?: unknown }[], statusId: number): { statusId: number; rule: AutomaticStatusRule }[] {
  return statuses.flatMap((s) => {
    const rule = storedAutomaticRule(s.automaticallySet);
    return rule && rule.automatically_set_after_status_id === statusId && s.id !== statusId ? [{ statusId: s.id, rule }] : [];
  });
}

/**
 * The rule after a PATCH of `automatically_set`: null turns it off; otherwise the sent fields over
 * the current rule (or the defaults: no offset, no conditions). Errors are keyed by the field; a
 * rule needs its "after" status, which must be another status of the shop, and must not close a
 * loop with the shop's other rules.
 */
export function applyAutomaticWrite(
  current: AutomaticStatusRule | null,
  sent: Partial<AutomaticStatusRule> | null,
  ownStatusId: number,
  shop: { statusIds: ReadonlySet<number>; edges: readonly { from: number; to: number }[] },
): { ok: true; rule: AutomaticStatusRule | null } | { ok: false; errors: Record<string, string[]> } {
  if (sent === null) return { ok: true, rule: null };
  const defined = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined)) as Partial<AutomaticStatusRule>;
  const merged = {
    automatically_set_offset_days: 0,
    automatically_set_offset_hours: 0,
    automatically_set_if_total_zero: false,
    automatically_set_only_for_shop_origin_orders: false,
    ...current,
    ...defined,
  };
  const field = 'automatically_set.automatically_set_after_status_id';
  const after = merged.automatically_set_after_status_id;
  if (after === undefined) return { ok: false, errors: { [field]: ['is required: the status after which this one is set'] } };
  if (after === ownStatusId) return { ok: false, errors: { [field]: ['must be another status than this one'] } };
  if (!shop.statusIds.has(after)) return { ok: false, errors: { [field]: ['is not an order status of this shop'] } };
  const others = shop.edges.filter((e) => e.to !== ownStatusId);
  if (closesAutomaticLoop(others, after, ownStatusId)) return { ok: false, errors: { [field]: ['would close a loop of automatic statuses (they would set each other forever)'] } };
  return { ok: true, rule: { ...merged, automatically_set_after_status_id: after } };
}

/**
 * Whether a rule "after `from`, set `to`" closes a loop with the shop's other rules (edges
 * after -> status): then statuses would set each other forever, so the write is refused.
 */
export function closesAutomaticLoop(edges: readonly { from: number; to: number }[], from: number, to: number): boolean {
  const next = new Map<number, number[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set<number>();
  const stack = [to];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === from) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...(next.get(at) ?? []));
  }
  return false;
}

/** What brought an order to the status a rule starts from: its placement (at New), the clearing or a status change. */
export type AutomaticStatusSource = EffectSource | 'placed';
