/**
 * Subscription periods and the renewal schedule (DESIGN.md section 7, issue 12): pure arithmetic
 * on instants in milliseconds, no clock of its own. The renewal workflow asks `nextRenewalStep`
 * what to do next and when; the activities use `nextPeriod` to write the period a payment buys.
 *
 * Every duration travels in milliseconds, so the workflow tests run a year of renewals with
 * millisecond periods while production passes days.
 */
import type { ExtensionStrategy } from './subscription-rules.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface Period {
  start: number;
  end: number;
}

/**
 * The period a payment buys. `immediate`: it starts at the payment (`paidAt`); `continuous`: it
 * starts where the previous one ended, so a late payment (a dunning retry, a paused subscriber)
 * does not lengthen the subscription, and no day is lost when the payment is early. Without a
 * previous period (the first one) both start at the payment.
 */
export function nextPeriod(p: { strategy: ExtensionStrategy; paidAt: number; previousEnd: number | null; intervalMs: number }): Period {
  const start = p.strategy === 'continuous' && p.previousEnd !== null ? p.previousEnd : p.paidAt;
  return { start, end: start + p.intervalMs };
}

/** A later period's length: the subscriber's own `renewal_interval_days`, else the plan-product link's interval. */
export function renewalIntervalDays(subscriberDays: number | null | undefined, linkDays: number): number {
  return subscriberDays ?? linkDays;
}

/** Whether another renewal is allowed: `renewals_limit` 0 means no limit. */
export function mayRenew(renewalsDone: number, renewalsLimit: number): boolean {
  return renewalsLimit === 0 || renewalsDone < renewalsLimit;
}

export type ReminderKind = 'expires_in_one_week' | 'expires_in_one_day';
export const REMINDER_KINDS: readonly ReminderKind[] = ['expires_in_one_week', 'expires_in_one_day'];

/** How long before the period end each reminder goes. */
export const REMINDER_OFFSETS_MS: Readonly<Record<ReminderKind, number>> = { expires_in_one_week: 7 * DAY_MS, expires_in_one_day: DAY_MS };

/** Retries of a declined renewal charge, counted from the period end: after 1, 3 and 5 days. */
export const DEFAULT_DUNNING_DAYS: readonly number[] = [1, 3, 5];

/**
 * Every reminder of a period, earliest first: `offset` before the end, and only when that instant
 * is not before the period start (a three-day period gets no one-week reminder).
 */
export function reminderInstants(period: Period, kinds: readonly ReminderKind[], offsets: Readonly<Record<ReminderKind, number>>): { kind: ReminderKind; at: number }[] {
  return kinds
    .map((kind) => ({ kind, at: period.end - offsets[kind] }))
    .filter((r) => r.at >= period.start)
    .sort((a, b) => a.at - b.at);
}

/**
 * When the renewal charge of a period is attempted: the first attempt at the period end, retry n
 * (n = failed attempts so far, 1-based) `dunning[n-1]` after the end. Null when every retry of the
 * schedule has failed: the subscription expires.
 */
export function chargeAttemptAt(periodEnd: number, failedAttempts: number, dunningMs: readonly number[]): number | null {
  if (failedAttempts === 0) return periodEnd;
  const delay = dunningMs[failedAttempts - 1];
  return delay === undefined ? null : periodEnd + delay;
}

/** What the renewal workflow knows of the running period (loaded by an activity, kept by the workflow). */
export interface RenewalSchedule {
  period: Period;
  paused: boolean;
  renewalsDone: number;
  renewalsLimit: number;
  /** The reminders the plan sends. */
  reminders: readonly ReminderKind[];
  reminderOffsetsMs: Readonly<Record<ReminderKind, number>>;
  /** Delays of the retries after the period end (ascending). */
  dunningMs: readonly number[];
  /** Declined charges of this period so far. */
  failedAttempts: number;
  /** False for a plan without automatic renewal: never charged, it ends with its period (default true). */
  automaticRenewal?: boolean;
}

export type RenewalStep =
  | { kind: 'reminder'; reminder: ReminderKind; at: number; skip: ReminderKind[] }
  | { kind: 'charge'; at: number; attempt: number }
  | { kind: 'expire'; at: number }
  | { kind: 'finish'; at: number }
  | { kind: 'wait' };

/**
 * The next thing to do, and the instant to do it at (it may be past: then at once).
 * - Reminders come first while the period runs; one whose time passed unsent (a worker down, a
 *   moved period) is still sent, unless a later reminder is due too: then only the later one, so
 *   the customer never hears "one week" after "one day". Reminders already handled are in `handled`.
 * - A paused subscriber waits (no reminder, no charge) until resumed.
 * - At the period end: `finish` when the renewal limit is reached or the plan renews by hand, else the charge attempt of the
 *   dunning schedule, or `expire` when the schedule is spent.
 */
export function nextRenewalStep(schedule: RenewalSchedule, handled: ReadonlySet<ReminderKind>, now: number): RenewalStep {
  if (schedule.paused) return { kind: 'wait' };
  const { period } = schedule;
  const pending = reminderInstants(period, schedule.reminders, schedule.reminderOffsetsMs).filter((r) => !handled.has(r.kind) && r.at < period.end);
  if (now < period.end && pending.length > 0) {
    const due = pending.filter((r) => r.at <= now);
    if (due.length > 0) {
      const last = due[due.length - 1]!;
      return { kind: 'reminder', reminder: last.kind, at: last.at, skip: due.slice(0, -1).map((r) => r.kind) };
    }
    const first = pending[0]!;
    return { kind: 'reminder', reminder: first.kind, at: first.at, skip: [] };
  }
  // A manual plan (no automatic renewal) is never charged: it ends with its period, unless a new purchase extended it.
  if (schedule.automaticRenewal === false || !mayRenew(schedule.renewalsDone, schedule.renewalsLimit)) return { kind: 'finish', at: period.end };
  const at = chargeAttemptAt(period.end, schedule.failedAttempts, schedule.dunningMs);
  if (at === null) return { kind: 'expire', at: period.end };
  return { kind: 'charge', at, attempt: schedule.failedAttempts + 1 };
}

/** When the next charge attempt is due (reminders aside); null when paused, at the renewal limit or past the last retry. */
export function nextChargeAt(schedule: RenewalSchedule): number | null {
  if (schedule.paused || schedule.automaticRenewal === false || !mayRenew(schedule.renewalsDone, schedule.renewalsLimit)) return null;
  return chargeAttemptAt(schedule.period.end, schedule.failedAttempts, schedule.dunningMs);
}

/**
 * The attempts of one period end: a moved end (PATCH .../period, also one that revives an expired
 * subscription) starts a fresh dunning cycle from the new end.
 */
export function chargeKeyPrefix(p: { shopId: string; subscriberId: number; periodId: number; periodEnd: number }): string {
  return `shop/${p.shopId}/subscriber/${p.subscriberId}/period/${p.periodId}/end/${p.periodEnd}/attempt/`;
}

/** The idempotency key of one charge attempt: the same attempt retried never charges twice. */
export function chargeKey(p: { shopId: string; subscriberId: number; periodId: number; periodEnd: number; attempt: number }): string {
  return `${chargeKeyPrefix(p)}${p.attempt}`;
}
