/**
 * Checkout of a cart: the operator's placement (`placeOrder`) with the cart as its body, the
 * client's address as `placed_ip` and the cart's id as the order's `uuid`; the placement marks the
 * cart checked out in the statement that stores the order. The uuid is unique, so of two
 * concurrent checkouts of one cart only one stores an order: the other (refused by the uuid, or by
 * a limit the first one used up) finds that order and answers it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StorefrontShop } from '../shop.ts';
import { cartOrder, markCheckedOut, type CartOrder, type StoredCart } from '../../../db/repositories/shop/carts.ts';
import type { PrefetchedReads } from '../../../db/repositories/shop/checkout-reads.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { placeOrder, type PlacementDeps } from '../../shop/placement/place-order.ts';
import { asCartRefusal, placementOf } from './cart-view.ts';

export interface CheckedOut {
  order: CartOrder;
  /** A new order (201); false when the cart had been checked out before (200). */
  placed: boolean;
  /** A new order: whether the shop's gateway is Stripe, as read with it. */
  stripeGateway?: boolean;
}

/** The order placed for the cart before (or concurrently), the cart marked as checked out by it; null for none. */
async function earlierOrder(em: EntityManager, shopId: string, cartId: string): Promise<CartOrder | null> {
  const order = await cartOrder(em, shopId, cartId);
  if (order) await markCheckedOut(em, cartId, order.id);
  return order;
}

/** `prefetched`: the placement's read, made with the cart's. */
export async function checkOut(deps: PlacementDeps, em: EntityManager, shop: StorefrontShop, cart: StoredCart, clientIp: string, prefetched?: PrefetchedReads): Promise<CheckedOut> {
  if (cart.orderId !== null || cart.placedOrderId !== null) {
    const before = await earlierOrder(em, shop.id, cart.id);
    if (before) return { order: before, placed: false };
  }
  if (!cart.state.email) throw unprocessable({ email: ['is needed to check out'] });
  try {
    const body = await placementOf(em, cart.state);
    const placed = await placeOrder(deps, em, shop, { ...body, placed_ip: clientIp }, { cartId: cart.id, prefetched });
    return { order: { id: placed.id, uuid: cart.id, ordinalNumber: placed.ordinalNumber, total: placed.total, currency: shop.currency }, placed: true, stripeGateway: placed.stripeGateway };
  } catch (error) {
    const concurrent = await earlierOrder(em, shop.id, cart.id);
    if (concurrent) return { order: concurrent, placed: false };
    throw asCartRefusal(error);
  }
}
