/** The pricing module's inputs for unit tests: a product, a discount code, an automatic discount. */
import type { AutomaticDiscountSnapshot } from '../../domain/shop/automatic-discount-pricing.ts';
import type { CodeSnapshot } from '../../domain/shop/discount-code-pricing.ts';
import type { DiscountType } from '../../domain/shop/discount-rules.ts';
import type { ProductSnapshot } from '../../domain/shop/pricing.ts';

export function product(id: number, price: string, fields: Partial<ProductSnapshot> = {}): ProductSnapshot {
  return {
    id, name: `P${id}`, sku: `S${id}`, price, vatRate: 23, active: true, allowPriceChange: false, minimalPrice: null, allowZeroMinimalPrice: false,
    electronic: false, deliveryTypeIds: [], paymentTypeIds: [], cartQuantityLimit: null, ...fields,
  };
}

/** An active code `SUMMER` for all products and deliveries, combinable, without limits. */
export function code(discountType: DiscountType, value: string | null, fields: Partial<CodeSnapshot> = {}): CodeSnapshot {
  return {
    id: 1, code: 'SUMMER', caseSensitive: true, discountType, value, minimumAmount: null, usages: 0, usagesLimit: null, usagesPerCustomerLimit: null,
    active: true, combineWithOtherDiscount: true, startDate: null, endDate: null, relationWithProducts: 'all_products', productIds: [], productCategoryIds: [],
    relationWithDeliveryTypes: 'all_delivery_types', deliveryTypeIds: [], pool: null, drawnAt: null, ...fields,
  };
}

/** An active automatic discount for all products, without limits or dates. */
export function automatic(kind: AutomaticDiscountSnapshot['kind'], discountType: string, value: string, fields: Partial<AutomaticDiscountSnapshot> = {}): AutomaticDiscountSnapshot {
  return {
    id: 1, kind, discountType, value, relationWithProducts: 'all_products', productIds: [], productCategoryIds: [], usagesLimit: null, usages: 0, active: true,
    email: null, emailDomain: null, minimumOrderValue: null, startDate: null, endDate: null, ...fields,
  };
}
