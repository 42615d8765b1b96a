/**
 * Checkout of a cart: the operator's placement (`placeOrder`) with the cart as its body, the
 * client's address as `placed_ip` and the cart's id as the order's `uuid`. The uuid is unique, so
 * of two concurrent checkouts of one cart only one stores an order: the other (refused by the
 * uuid, or by a limit the first one used up) finds that order and answers it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IOrder, IShop } from '../../../db/entities/shop/index.ts';
import { markCheckedOut } from '../../../db/repositories/shop/carts.ts';
import { orderByUuid } from '../../../db/repositories/shop/storefront.ts';
import type { CartState } from '../../../domain/shop/cart.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { placeOrder, type PlacementDeps } from '../../shop/orders/place-order.ts';
import { asCartRefusal, placementOf } from './cart-view.ts';

export interface CheckedOut {
  order: IOrder;
  /** A new order (201); false when the cart had been checked out before (200). */
  placed: boolean;
}

/** The order placed for this cart before, on a fresh entity manager (the request's may hold a failed transaction's state). */
async function earlierOrder(em: EntityManager, shopId: string, cartId: string): Promise<IOrder | null> {
  const fresh = em.fork({ clear: true });
  fresh.setFilterParams(SHOP_FILTER, { shopId });
  return (await orderByUuid(fresh, cartId))?.order ?? null;
}

export async function checkOut(deps: PlacementDeps, em: EntityManager, shop: IShop, cart: { id: string; state: CartState }, clientIp: string): Promise<CheckedOut> {
  const before = await earlierOrder(em, shop.id, cart.id);
  if (before) {
    await markCheckedOut(em, cart.id, before.id);
    return { order: before, placed: false };
  }
  if (!cart.state.email) throw unprocessable({ email: ['is needed to check out'] });
  let orderId: number;
  try {
    const body = await placementOf(em, cart.state);
    orderId = await placeOrder(deps, em, shop, { ...body, placed_ip: clientIp }, { uuid: cart.id });
  } catch (error) {
    const concurrent = await earlierOrder(em, shop.id, cart.id);
    if (concurrent) {
      await markCheckedOut(em, cart.id, concurrent.id);
      return { order: concurrent, placed: false };
    }
    throw asCartRefusal(error);
  }
  await markCheckedOut(em, cart.id, orderId);
  return { order: (await earlierOrder(em, shop.id, cart.id))!, placed: true };
}
