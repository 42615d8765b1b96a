/**
 * Rules of a shop product's write fields (spec: Product (write fields)), pure: each takes what was
 * sent and answers the stored value, or null when the value breaks the rule.
 */
import { Decimal } from 'decimal.js';

/** Flat-rate tax rates (`lump_code`) a product may carry, as stored and answered. */
export const LUMP_CODES = ['17', '15', '14', '12.5', '12', '10', '8.5', '5.5', '3'] as const;
export type LumpCode = (typeof LUMP_CODES)[number];

export const DISTRIBUTIONS = ['normal', 'audio', 'video', 'webinar', 'course'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

const DECIMAL = /^\d{1,3}(\.\d{1,4})?$/;

/** `17`, `"12.5"`, `"12.50"` and `8.5` name allowed rates; the answer is the rate as listed. */
export function lumpCodeOf(value: string | number): LumpCode | null {
  const text = String(value).trim();
  if (!DECIMAL.test(text)) return null;
  const rate = new Decimal(text);
  return LUMP_CODES.find((code) => rate.equals(code)) ?? null;
}

/** A VAT rate sent as text (`"23"`, `"23%"`) or a number: a whole percentage from 0 to 100. */
export function vatRateOf(value: string | number): number | null {
  const text = String(value).trim().replace(/%$/, '');
  if (!/^\d{1,3}$/.test(text)) return null;
  const rate = Number(text);
  return rate <= 100 ? rate : null;
}

/** EAN-13: exactly 13 digits (the check digit is not verified: shops use internal codes too). */
export const isEan = (value: string) => /^\d{13}$/.test(value);

/** GTU_01 to GTU_13. */
export const isGtuCode = (value: string) => /^GTU_(0[1-9]|1[0-3])$/.test(value);

/** An absolute http(s) address. */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export interface PriceSettings {
  price: string;
  allowPriceChange: boolean;
  minimalPrice: string | null;
  allowZeroMinimalPrice: boolean;
}

/**
 * What is wrong with a product's price settings once a write is applied: a buyer-chosen price
 * has a floor (`minimal_price`) that may not exceed the price, and a floor of zero needs
 * `allow_zero_minimal_price`. Without `allow_price_change` the floor is kept but unused.
 */
export function minimalPriceProblem(settings: PriceSettings): string | null {
  if (!settings.allowPriceChange || settings.minimalPrice === null) return null;
  const floor = new Decimal(settings.minimalPrice);
  if (floor.greaterThan(settings.price)) return 'must not be above the price';
  if (floor.isZero() && !settings.allowZeroMinimalPrice) return 'may be 0 only with allow_zero_minimal_price';
  return null;
}

/** Ids that are not among the shop's (unknown or another shop's), in the order sent. */
export function unknownIds(sent: readonly number[], known: ReadonlySet<number>): number[] {
  return sent.filter((id) => !known.has(id));
}

/** The name of a clone: the name given, else `Kopia: <name>` (cut to the column's 255 characters). */
export function cloneName(original: string, given?: string): string {
  return given ?? `Kopia: ${original}`.slice(0, 255);
}

/** A positive int32 id from a path segment; null for anything else (answered 404). */
export function pathId(segment: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id <= 2_147_483_647 ? id : null;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
