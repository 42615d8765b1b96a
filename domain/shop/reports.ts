/**
 * Pure rules of the shop reports (spec: Reports): calendar dates, the date range, bucket keys and
 * amounts. Dates are calendar days `YYYY-MM-DD` with no time zone; the SQL applies the shop's
 * time zone to them (db/repositories/shop/reports.ts).
 */
import { cents, money, toMoneyString } from '../shared/money.ts';

/** Longest report range, in calendar days counted inclusively (spec: Limits). */
export const REPORT_MAX_DAYS = 1830;

export const REPORT_GROUPINGS = ['total', 'day', 'week', 'month'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD` (years 1000 to 9999), else null (2026-02-30 is null). */
export function dayNumber(text: string): number | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return ms / DAY_MS;
}

/** `YYYY-MM-DD` of a day number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Number of calendar days from `from` to `to`, both included (1 for the same day; 0 or less when reversed). */
export function daysInRange(from: string, to: string): number {
  return dayNumber(to)! - dayNumber(from)! + 1;
}

/** Why a range of two valid dates is refused, or null when it is fine. Both problems belong to `date_to`. */
export function dateRangeProblem(from: string, to: string): string | null {
  const days = daysInRange(from, to);
  if (days < 1) return 'must not be before date_from';
  if (days > REPORT_MAX_DAYS) return `the range may cover at most ${REPORT_MAX_DAYS} days (date_from and date_to included)`;
  return null;
}

/**
 * The bucket a day falls in: the day itself, the Monday of its ISO week, or the first day of its
 * month. `total` has no buckets (null).
 */
export function bucketOf(date: string, grouping: ReportGrouping): string | null {
  const day = dayNumber(date);
  if (day === null) throw new RangeError(`not a date: ${date}`);
  switch (grouping) {
    case 'total':
      return null;
    case 'day':
      return date;
    case 'week': {
      // 1970-01-01 was a Thursday: day 0 is weekday 3 counted from Monday.
      const weekday = (((day + 3) % 7) + 7) % 7;
      return dayText(day - weekday);
    }
    case 'month':
      return `${date.slice(0, 7)}-01`;
  }
}

/** Every bucket key from the bucket of `from` to the bucket of `to`, in order (empty for `total`). */
export function bucketKeys(from: string, to: string, grouping: ReportGrouping): string[] {
  if (grouping === 'total') return [];
  const keys: string[] = [];
  const last = bucketOf(to, grouping)!;
  let key = bucketOf(from, grouping)!;
  while (key <= last) {
    keys.push(key);
    key = nextBucket(key, grouping);
  }
  return keys;
}

function nextBucket(key: string, grouping: Exclude<ReportGrouping, 'total'>): string {
  if (grouping === 'month') {
    const [year, month] = [Number(key.slice(0, 4)), Number(key.slice(5, 7))];
    return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  }
  return dayText(dayNumber(key)! + (grouping === 'week' ? 7 : 1));
}

/**
 * Rows of an aggregate keyed by bucket, completed with `empty(key)` for each bucket without
 * orders, in bucket order. Rows outside the keys are dropped (they cannot occur: the SQL filters
 * on the same range).
 */
export function fillBuckets<T extends { date: string }>(keys: readonly string[], rows: readonly T[], empty: (date: string) => T): T[] {
  const byDate = new Map(rows.map((row) => [row.date, row]));
  return keys.map((key) => byDate.get(key) ?? empty(key));
}

/** An amount from the database (numeric as text, or null for an empty sum) with two decimals. */
export function amount(value: string | null | undefined): string {
  return toMoneyString(value ?? 0);
}

/** Revenue divided by the number of orders, rounded half up to cents; "0.00" without orders. */
export function averageOrderValue(revenue: string, count: number): string {
  if (count <= 0) return '0.00';
  return cents(money(revenue).dividedBy(count)).toFixed(2);
}
