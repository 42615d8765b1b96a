/**
 * A cart's PATCH: the sent fields as the cart stores them (`null` clears), and the part of them
 * the cart's pricing read depends on (checkout-reads.ts `useCartWithReads` makes the read for the
 * cart's state with that part in place): one normalisation for both, so the read is made for the
 * state that is stored.
 */
import type { CartReadsPatch } from '../../../db/repositories/shop/checkout-reads.ts';
import type { CartItem, CartState } from '../../../domain/shop/cart.ts';
import type { PatchCartInput } from './schemas.ts';

/** Items as a cart stores them (a price only when sent). */
export function cartItems(items: readonly { product_id: number; quantity: number; price?: string }[]): CartItem[] {
  return items.map((item) => ({ product_id: item.product_id, quantity: item.quantity, ...(item.price !== undefined ? { price: item.price } : {}) }));
}

/** The sent fields but `product_set`, as stored: the code trimmed, an empty code, `ref` or parcel point as null. */
function storedFields(body: PatchCartInput): Partial<CartState> {
  const fields: Partial<CartState> = {};
  if (body.items !== undefined) fields.items = cartItems(body.items);
  if (body.email !== undefined) fields.email = body.email;
  if (body.newsletter !== undefined) fields.newsletter = body.newsletter;
  if (body.discount_code !== undefined) fields.discount_code = body.discount_code?.trim() || null;
  if (body.delivery_type_id !== undefined) fields.delivery_type_id = body.delivery_type_id;
  if (body.payment_type_id !== undefined) fields.payment_type_id = body.payment_type_id;
  if (body.delivery_address !== undefined) fields.delivery_address = body.delivery_address;
  if (body.invoice_address !== undefined) fields.invoice_address = body.invoice_address;
  if (body.comment !== undefined) fields.comment = body.comment;
  if (body.ref !== undefined) fields.ref = body.ref || null;
  if (body.delivery_point_code !== undefined) fields.delivery_point_code = body.delivery_point_code || null;
  if (body.invoice_recipient_name !== undefined) fields.invoice_recipient_name = body.invoice_recipient_name;
  if (body.order_attributes !== undefined) fields.order_attributes = body.order_attributes;
  if (body.analytics_client_id !== undefined) fields.analytics_client_id = body.analytics_client_id;
  return fields;
}

/** The cart after a PATCH: sent fields replace, `null` clears; a set chosen here (not through its link) is not `via_set_link`. */
export function patched(state: CartState, body: PatchCartInput): CartState {
  const next: CartState = { ...state, ...storedFields(body) };
  if (body.product_set !== undefined && body.product_set !== state.product_set) {
    next.product_set = body.product_set;
    next.via_set_link = false;
  }
  return next;
}

/** The fields of a cart the read's keys are taken from (domain/shop/pricing-inputs.ts `pricingReadKeys`). */
const READ_FIELDS = ['items', 'email', 'discount_code', 'delivery_type_id', 'payment_type_id'] as const satisfies readonly (keyof CartReadsPatch)[];

/** The fields of a PATCH the cart's pricing read depends on, as `patched` stores them. */
export function readsPatch(body: PatchCartInput): CartReadsPatch {
  const stored = storedFields(body);
  return Object.fromEntries(READ_FIELDS.filter((field) => stored[field] !== undefined).map((field) => [field, stored[field]])) as CartReadsPatch;
}
