/**
 * Money: decimal arithmetic (decimal.js), never floats. Amounts are rounded to cents half up
 * (`ROUND_HALF_UP`) and travel as strings with two decimals.
 */
import { Decimal } from 'decimal.js';

export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

const MONEY_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

/** A non-negative amount with at most two decimals and ten integer digits (numeric(12,2)). */
export function isMoney(text: string): boolean {
  return MONEY_PATTERN.test(text);
}

export function money(value: Decimal.Value): Decimal {
  return new Money(value);
}

/** Rounded to cents, half up. */
export function cents(value: Decimal.Value): Decimal {
  return new Money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function toMoneyString(value: Decimal.Value): string {
  return cents(value).toFixed(2);
}

export const ZERO = new Money(0);
