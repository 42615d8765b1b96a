/**
 * VAT of a gross amount (DESIGN.md section 7: prices are gross, VAT is derived per line from its
 * rate): vat = gross × rate / (100 + rate), rounded half up to cents.
 */
import type { Decimal } from 'decimal.js';
import { cents, money } from '../shared/money.ts';

export function vatOfGross(gross: Decimal.Value, ratePercent: number): Decimal {
  if (ratePercent <= 0) return cents(0);
  const rate = money(ratePercent);
  return cents(money(gross).times(rate).dividedBy(rate.plus(100)));
}
