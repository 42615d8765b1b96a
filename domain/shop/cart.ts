/**
 * A storefront cart (DESIGN.md section 9): what the buyer chose, kept until checkout. Its amounts
 * are never stored: every read prices it again through the placement's pricing (pricing.ts).
 */
import type { OrderAddress, OrderAttribute } from './order.ts';

/** Carts unused (not read or changed) this long are forgotten by the scheduled cleanup. */
export const CART_TTL_DAYS = 30;

export interface CartItem {
  product_id: number;
  quantity: number;
  /** The buyer's unit price (allow_price_change products). */
  price?: string;
}

/** The buyer's choices, in the placement's field names. */
export interface CartState {
  items: CartItem[];
  /** The slug of the product set ordered whole (its link's last part). */
  product_set: string | null;
  /** The set came with the cart's creation, i.e. through its link (a `link_only_discount` set needs it). */
  via_set_link: boolean;
  email: string | null;
  newsletter: boolean;
  discount_code: string | null;
  delivery_type_id: number | null;
  payment_type_id: number | null;
  delivery_address: Partial<OrderAddress> | null;
  invoice_address: Partial<OrderAddress> | null;
  comment: string;
  ref: string | null;
  // Checkout data (DESIGN.md section 10), issue 40: carts stored before have none (read as unset).
  /** The parcel locker chosen; null for none. */
  delivery_point_code?: string | null;
  /** The name the invoice is made out to; '' for none. */
  invoice_recipient_name?: string;
  order_attributes?: OrderAttribute[];
  /** The buyer's GA4 client id (normalized from the `_ga` cookie); null for none. */
  analytics_client_id?: string | null;
}

export const EMPTY_CART: CartState = {
  items: [],
  product_set: null,
  via_set_link: false,
  email: null,
  newsletter: false,
  discount_code: null,
  delivery_type_id: null,
  payment_type_id: null,
  delivery_address: null,
  invoice_address: null,
  comment: '',
  ref: null,
  delivery_point_code: null,
  invoice_recipient_name: '',
  order_attributes: [],
  analytics_client_id: null,
};

/** The moment before which an unused cart is forgotten. */
export function cartExpiry(now: Date): Date {
  return new Date(now.getTime() - CART_TTL_DAYS * 24 * 60 * 60 * 1000);
}

/**
 * The delivery (or payment) types a cart may use: those of `all` that every product allows (an
 * empty list allows any), in the order of `all`.
 */
export function allowedTypeIds(all: readonly number[], restrictions: readonly (readonly number[])[]): number[] {
  return all.filter((id) => restrictions.every((allowed) => allowed.length === 0 || allowed.includes(id)));
}

/** The storefront's base address of the shop at `subdomain`: `template` (STOREFRONT_URL_TEMPLATE) with `{subdomain}` replaced. */
export function storefrontBase(template: string, subdomain: string): string {
  return template.replaceAll('{subdomain}', subdomain).replace(/\/+$/, '');
}

/** The order's copy link (DESIGN.md section 9): a new cart with the order's buyer data. */
export function copyUrl(storefront: string, uuid: string): string {
  return `${storefront}/cart?copy_of=${uuid}`;
}
