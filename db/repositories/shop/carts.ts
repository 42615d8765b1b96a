/**
 * Storefront carts (DESIGN.md section 9): the buyer's choices under a random uuid. Every read and
 * change counts as use; carts unused for 30 days are deleted by the scheduled cleanup.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Cart, type ICart } from '../../entities/shop/index.ts';
import type { CartState } from '../../../domain/shop/cart.ts';

export async function createCart(em: EntityManager, shopId: string, state: CartState): Promise<ICart> {
  const cart = em.create(Cart, { shop: shopId, state, orderId: null });
  await em.flush();
  return cart;
}

/** The scoped shop's cart with this id, its last use now; null for none. */
export async function useCart(em: EntityManager, id: string): Promise<ICart | null> {
  const cart = await em.findOne(Cart, { id });
  if (!cart) return null;
  await em.nativeUpdate(Cart, { id }, { updatedAt: new Date() });
  return cart;
}

export type CartUpdate = { ok: true } | { ok: false; reason: 'not_found' | 'checked_out' };

/**
 * Stores the cart's new state, unless it was checked out meanwhile: the row is locked, so a
 * change and a checkout (which marks the row under the same lock) never both win.
 */
export async function updateCartState(em: EntityManager, id: string, state: CartState): Promise<CartUpdate> {
  return em.transactional(async (tx) => {
    // An order with the cart's uuid also counts: a checkout that stored its order but not its mark.
    const [row] = await tx.execute<{ order_id: number | null; placed: boolean }[]>(
      'select order_id, exists (select 1 from shop_orders o where o.uuid = c.id) as placed from shop_carts c where c.id = ? for update',
      [id],
    );
    if (!row) return { ok: false, reason: 'not_found' };
    if (row.order_id !== null || row.placed) return { ok: false, reason: 'checked_out' };
    await tx.execute('update shop_carts set state = ?, updated_at = now() where id = ?', [JSON.stringify(state), id]);
    return { ok: true };
  });
}

/** Marks the cart checked out as the order `orderId` (its uuid is the cart's id). */
export async function markCheckedOut(em: EntityManager, id: string, orderId: number): Promise<void> {
  await em.execute('update shop_carts set order_id = ?, updated_at = now() where id = ? and order_id is null', [orderId, id]);
}

/** Deletes every shop's carts unused since `before`; returns how many. */
export async function deleteCartsUnusedSince(em: EntityManager, before: Date): Promise<number> {
  return em.nativeDelete(Cart, { updatedAt: { $lt: before } }, { filters: false });
}
