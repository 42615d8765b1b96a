/**
 * Storefront carts (DESIGN.md section 9): the buyer's choices under a random uuid. Every read and
 * change counts as use (a read to the hour); carts unused for 30 days are deleted by the scheduled cleanup. Each read
 * and write is one statement naming the shop, the hot ones prepared (the checkout path runs them
 * on every request: shared/prepared.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Cart } from '../../entities/shop/index.ts';
import type { CartState } from '../../../domain/shop/cart.ts';
import { runStatement, statement } from '../shared/prepared.ts';

/** A cart as the storefront uses it: its id (the buyer's key), the buyer's choices and the order it became. */
export interface StoredCart {
  id: string;
  state: CartState;
  /** The order the cart was marked checked out as. */
  orderId: number | null;
  /** The order with the cart's id as its uuid (a checkout that stored its order but not yet its mark too); null for none. */
  placedOrderId: number | null;
}

export async function createCart(em: EntityManager, shopId: string, state: CartState): Promise<StoredCart> {
  const id = randomUUID();
  const now = new Date();
  await runStatement(
    em,
    statement('shop-cart-create', 'insert into shop_carts (id, shop_id, state, order_id, created_at, updated_at) values (:id, :shop, :state, null, :now, :now)', {
      id,
      shop: shopId,
      state: JSON.stringify(state),
      now,
    }),
  );
  return { id, state, orderId: null, placedOrderId: null };
}

/**
 * How stale a cart's last use may be before a read writes it again. Against the 30 days of the
 * cleanup an hour changes nothing, and the reads of a buyer's session (a PATCH, the checkout, a
 * few seconds apart) write nothing: a read-only statement waits for no WAL flush at its commit
 * (issue 26 item 2: the checkout path had five commits per order where the raw SQL has one).
 */
const CART_USE_RESOLUTION_MS = 60 * 60 * 1000;

/**
 * The order with the cart's id as its uuid, of the cart's shop (`c` the cart's row), by the uuid's
 * unique index alone: with the shop in its condition the planner may pick the shop's index and walk
 * every order of the shop (it did, on a fresh table: 966 buffers per read at 1 000 orders, growing
 * with the shop). A uuid is unique across shops, so the shop is checked on the one row.
 */
const PLACED_ORDER_ID_SQL = '(select case when o.shop_id = c.shop_id then o.id end from shop_orders o where o.uuid = c.id)';

/**
 * A cart's read as a statement's first two CTEs: `used` writes its last use now (to the hour),
 * `cart_row` is the cart (`:cart` of `:shop`) with the order placed for it and `columns`, more
 * columns of `c`. Bound with `cartUseValues`; `useCart` and the cart's pricing read
 * (checkout-reads.ts `useCartWithReads`) both begin with it.
 */
export const cartRowSql = (columns = '') => `
with used as (update shop_carts set updated_at = :now where id = :cart and shop_id = :shop and updated_at < :stale),
cart_row as (
  select c.id, c.state, c.order_id, ${PLACED_ORDER_ID_SQL} as placed_order_id${columns}
    from shop_carts c where c.id = :cart and c.shop_id = :shop)`;

/** The values `cartRowSql` binds. */
export function cartUseValues(shopId: string, cartId: string, now: Date) {
  return { now, stale: new Date(now.getTime() - CART_USE_RESOLUTION_MS), cart: cartId, shop: shopId };
}

/** The shop's cart with this id, its last use now (to the hour); null for none. */
export async function useCart(em: EntityManager, shopId: string, id: string): Promise<StoredCart | null> {
  const [row] = await runStatement<{ id: string; state: CartState; order_id: number | null; placed_order_id: number | null }>(
    em,
    statement('shop-cart-use', `${cartRowSql()} select id, state, order_id, placed_order_id from cart_row`, cartUseValues(shopId, id, new Date())),
  );
  return row ? { id: row.id, state: row.state, orderId: row.order_id, placedOrderId: row.placed_order_id } : null;
}

/** What a checkout answers of the order placed for a cart. */
export interface CartOrder {
  id: number;
  uuid: string;
  ordinalNumber: number;
  total: string;
  currency: string;
}

/** The shop's order placed for the cart (its uuid is the cart's id); null for none. By the uuid's unique index alone, the shop checked on the row (PLACED_ORDER_ID_SQL's reason). */
export async function cartOrder(em: EntityManager, shopId: string, cartId: string): Promise<CartOrder | null> {
  const [row] = await em.execute<{ id: number; uuid: string; ordinal_number: number; total: string; currency: string; shop_id: string }[]>(
    'select id, uuid, ordinal_number, total, currency, shop_id from shop_orders where uuid = ?',
    [cartId],
  );
  return row && row.shop_id === shopId ? { id: row.id, uuid: row.uuid, ordinalNumber: row.ordinal_number, total: row.total, currency: row.currency } : null;
}

export type CartUpdate = { ok: true } | { ok: false; reason: 'not_found' | 'checked_out' };

/**
 * Stores the cart's new state, unless it was checked out meanwhile: the UPDATE locks the row and
 * rechecks it, so a change and a checkout (which marks the row under the same lock) never both
 * win. One statement; a refused one is told apart by a second read.
 */
export async function updateCartState(em: EntityManager, shopId: string, id: string, state: CartState): Promise<CartUpdate> {
  // An order with the cart's uuid also counts: a checkout that stored its order but not its mark.
  const updated = await runStatement<{ id: string }>(
    em,
    statement(
      'shop-cart-update',
      `update shop_carts c set state = :state, updated_at = now() where c.id = :id and c.shop_id = :shop and c.order_id is null
          and not exists (select 1 from shop_orders o where o.uuid = c.id) returning c.id`,
      { state: JSON.stringify(state), id, shop: shopId },
    ),
  );
  if (updated.length > 0) return { ok: true };
  const [row] = await em.execute<{ id: string }[]>('select id from shop_carts where id = ? and shop_id = ?', [id, shopId]);
  return { ok: false, reason: row ? 'checked_out' : 'not_found' };
}

/** Marks the cart checked out as the order `orderId` (its uuid is the cart's id). */
export async function markCheckedOut(em: EntityManager, id: string, orderId: number): Promise<void> {
  await em.execute('update shop_carts set order_id = ?, updated_at = now() where id = ? and order_id is null', [orderId, id]);
}

/** Deletes every shop's carts unused since `before`; returns how many. */
export async function deleteCartsUnusedSince(em: EntityManager, before: Date): Promise<number> {
  return em.nativeDelete(Cart, { updatedAt: { $lt: before } }, { filters: false });
}
