/**
 * The price-history variants of time-limited discounts (percentage_product_discount,
 * value_product_discount), pure: which products a discount reprices (the same relation rule as a
 * discount code's lines, discount-code-pricing.ts) and the price it gives them. Cents, half up;
 * a price never goes below zero.
 */
import { cents, money, toMoneyString, ZERO } from '../shared/money.ts';
import type { PriceHistoryType } from './automatic-discount-rules.ts';
import { lineEligible } from './discount-code-pricing.ts';
import type { ProductRelation } from './discount-rules.ts';

export interface ProductRelationRule {
  relationWithProducts: ProductRelation;
  productIds: readonly number[];
  productCategoryIds: readonly number[];
}

/** Whether the discount's relation takes in the product (its id and main categories). */
export function productAffected(rule: ProductRelationRule, product: { id: number; productCategoryIds: readonly number[] }): boolean {
  return lineEligible(rule, { productId: product.id, categoryIds: product.productCategoryIds });
}

/** The product's price under the discount: `value` percent off (the new price rounded half up), or `value` off; never below 0. */
export function discountedPrice(price: string, type: PriceHistoryType, value: string): string {
  const base = money(price);
  const after = type === 'percentage_product_discount' ? cents(base.times(money(100).minus(value)).dividedBy(100)) : base.minus(value);
  return toMoneyString(after.lessThan(0) ? ZERO : after);
}
