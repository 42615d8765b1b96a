/**
 * A cart as the placement sees it, and the cart's reply: the cart becomes the body of the
 * operator's placement (`PlaceOrderInput`) and is priced by the same use case (`priceOrder`), so a
 * cart and the order it becomes always price the same.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { StorefrontShop } from '../shop.ts';
import { productsForCart } from '../../../db/repositories/shop/orders.ts';
import type { PrefetchedReads } from '../../../db/repositories/shop/checkout-reads.ts';
import { activeChargeTypes, type ActiveChargeType } from '../../../db/repositories/shop/reference.ts';
import { productSetBySlug, recommendationsFor, type Recommendation } from '../../../db/repositories/shop/storefront.ts';
import { allowedTypeIds, type CartState } from '../../../domain/shop/cart.ts';
import type { PricedCart, ProductSnapshot } from '../../../domain/shop/pricing.ts';
import { HttpError } from '../../shared/errors.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import { priceOrder } from '../../shop/placement/place-order.ts';
import type { PlaceOrderInput } from '../../shop/placement/schemas.ts';
import { recommendationReply } from '../products/serialize.ts';
import type { CartReply } from './schemas.ts';

/** The placement's field names as the cart names them. */
const CART_FIELDS: Record<string, string> = { product_set_id: 'product_set' };

/** A 422 of the placement with its fields named as the cart names them; anything else as it was. */
export function asCartRefusal(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.statusCode !== 422) return error;
  const errors = (error.body.errors ?? {}) as FieldErrors;
  return unprocessable(Object.fromEntries(Object.entries(errors).map(([field, messages]) => [CART_FIELDS[field] ?? field, messages])), error.message);
}

/** The placement body the cart stands for (`placed_ip` aside); 422 for a set slug the shop does not have. */
export async function placementOf(em: EntityManager, state: CartState): Promise<PlaceOrderInput> {
  let productSetId: number | null = null;
  if (state.product_set !== null) {
    const set = await productSetBySlug(em, state.product_set);
    if (!set) throw unprocessable({ product_set: ['is not a product set of this shop'] });
    productSetId = set.id;
  }
  return {
    email: state.email ?? '',
    items: state.items.map((item) => ({ product_id: item.product_id, quantity: item.quantity, price: item.price })),
    product_set_id: productSetId,
    via_set_link: state.via_set_link,
    delivery_type_id: state.delivery_type_id,
    payment_type_id: state.payment_type_id,
    discount_code: state.discount_code,
    newsletter: state.newsletter,
    delivery_address: state.delivery_address,
    invoice_address: state.invoice_address,
    comment: state.comment,
    ref: state.ref,
    delivery_point_code: state.delivery_point_code ?? null,
    invoice_recipient_name: state.invoice_recipient_name ?? '',
    order_attributes: state.order_attributes ?? [],
    analytics_client_id: state.analytics_client_id ?? null,
  };
}

const isEmpty = (state: CartState) => state.items.length === 0 && state.product_set === null;

/** A cart priced: the amounts, and what the pricing read: the products of its lines and the shop's active delivery and payment types. */
export interface CartPricing {
  cart: PricedCart;
  products: readonly ProductSnapshot[];
  deliveryTypes: readonly ActiveChargeType[];
  paymentTypes: readonly ActiveChargeType[];
  /** The recommendations for the priced products (read with them for a cart of items; a set's are read after). */
  recommendations?: Recommendation[];
}

/**
 * The cart priced as the placement would price it now; null for an empty cart. Throws the placement's 422 (fields as the cart names them).
 * `prefetched`: the read made with the cart's, used when made for this state.
 */
export async function priceCart(em: EntityManager, shop: StorefrontShop, state: CartState, prefetched?: PrefetchedReads): Promise<CartPricing | null> {
  if (isEmpty(state)) return null;
  try {
    // A cart of items prices exactly its items' products: their recommendations come with the read.
    const { cart, products, deliveryTypes, paymentTypes, recommendations } = await priceOrder(em, shop, await placementOf(em, state), { recommendations: state.product_set === null, prefetched });
    return { cart, products, deliveryTypes, paymentTypes, recommendations };
  } catch (error) {
    throw asCartRefusal(error);
  }
}

const ZERO_PRICING = { products_cost: '0.00', delivery_cost: '0.00', payment_cost: '0.00', total_discount: '0.00', total: '0.00' };

/**
 * The cart's reply: priced now (a cart that cannot be priced now says why in `problems`), with
 * what it may be sent and paid with. `pricing`: the cart just priced by the caller (not priced again).
 */
export async function cartReply(
  em: EntityManager,
  shop: StorefrontShop,
  cart: { id: string; state: CartState; orderId?: number | null },
  pricing?: CartPricing | null,
): Promise<z.infer<typeof CartReply>> {
  const { state } = cart;
  let priced: CartPricing | null = pricing ?? null;
  let problems: FieldErrors = fieldErrorMap();
  if (pricing === undefined) {
    try {
      priced = await priceCart(em, shop, state);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 422) throw error;
      problems = (error.body.errors ?? {}) as FieldErrors;
    }
  }
  const productIds = [...new Set(priced ? priced.cart.lines.map((line) => line.productId) : state.items.map((item) => item.product_id))];
  const products: readonly Pick<ProductSnapshot, 'deliveryTypeIds' | 'paymentTypeIds'>[] = priced ? priced.products : productIds.length > 0 ? await productsForCart(em, productIds) : [];
  const { deliveries, payments } = priced ? { deliveries: priced.deliveryTypes, payments: priced.paymentTypes } : await activeChargeTypes(em, shop.id);
  const recommendations = priced?.recommendations ?? (await recommendationsFor(em, shop.id, productIds));
  const deliveryIds = new Set(allowedTypeIds(deliveries.map((d) => d.id), products.map((p) => p.deliveryTypeIds)));
  const paymentIds = new Set(allowedTypeIds(payments.map((p) => p.id), products.map((p) => p.paymentTypeIds)));
  return {
    id: cart.id,
    email: state.email,
    items: (priced?.cart.lines ?? []).map((line) => ({
      product_id: line.productId,
      name: line.name,
      quantity: line.quantity,
      unit_price: line.unitPrice,
      price: line.price,
      discount: line.discount,
      final_price: line.finalPrice,
    })),
    product_set: state.product_set,
    discount_code: state.discount_code,
    newsletter: state.newsletter,
    delivery_type_id: state.delivery_type_id,
    payment_type_id: state.payment_type_id,
    delivery_address: (state.delivery_address as Record<string, string> | null) ?? null,
    invoice_address: (state.invoice_address as Record<string, string> | null) ?? null,
    comment: state.comment,
    ref: state.ref,
    delivery_point_code: state.delivery_point_code ?? null,
    invoice_recipient_name: state.invoice_recipient_name ?? '',
    order_attributes: state.order_attributes ?? [],
    analytics_client_id: state.analytics_client_id ?? null,
    pricing: priced
      ? { products_cost: priced.cart.productsCost, delivery_cost: priced.cart.deliveryCost, payment_cost: priced.cart.paymentCost, total_discount: priced.cart.totalDiscount, total: priced.cart.total }
      : Object.keys(problems).length > 0
        ? null
        : ZERO_PRICING,
    problems,
    currency: shop.currency,
    checked_out: cart.orderId != null,
    recommendations: recommendations.map(recommendationReply),
    delivery_types: deliveries.filter((d) => deliveryIds.has(d.id)).map((d) => ({ id: d.id, name_displayed: d.nameDisplayed, price: d.defaultPrice })),
    payment_types: payments.filter((p) => paymentIds.has(p.id)).map((p) => ({ id: p.id, name_displayed: p.nameDisplayed, price: p.defaultPrice })),
  };
}
