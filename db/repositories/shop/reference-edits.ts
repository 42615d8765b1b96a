/**
 * The panel's edits of the shop's reference lists (DESIGN.md section 10): a change of a delivery
 * or payment type, category, sender or order status, and the deletion of a category, sender or
 * user status unless something still uses it. The entity manager is scoped to the shop (its
 * filter); raw SQL names the shop itself.
 */
import { LockMode, type EntityData, type EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isBuiltInStatus } from '../../../domain/shop/order-statuses.ts';
import { DeliveryType, OrderStatus, PaymentType, ProductCategory, Sender, type IDeliveryType, type IOrderStatus, type IPaymentType, type ISender } from '../../entities/shop/index.ts';

/** The shop's row locked for the rest of the transaction; null for an unknown id or another shop's. */
function lockRow<T extends object>(tx: EntityManager, entity: EntityName<T>, id: number): Promise<T | null> {
  return tx.findOne(entity, { id } as never, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** Writes `values` to the shop's row under its lock; null when the shop has no such row. */
export function editRow<T extends object>(em: EntityManager, entity: EntityName<T>, id: number, values: EntityData<T>): Promise<T | null> {
  return em.transactional(async (tx) => {
    const row = await lockRow(tx, entity, id);
    // A field left out of the PATCH is left as it is (assign would write it as null).
    if (row) tx.assign(row, Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as never);
    return row;
  });
}

export const editDeliveryType = (em: EntityManager, id: number, values: EntityData<IDeliveryType>) => editRow(em, DeliveryType, id, values);
export const editPaymentType = (em: EntityManager, id: number, values: EntityData<IPaymentType>) => editRow(em, PaymentType, id, values);
export const editSender = (em: EntityManager, id: number, values: EntityData<ISender>) => editRow(em, Sender, id, values);
export const editOrderStatus = (em: EntityManager, id: number, values: { name?: string; visible?: boolean }) => editRow(em, OrderStatus, id, values);

/** The category's ancestors, nearest first (the shop's categories; stops at a loop). */
export async function categoryAncestors(em: EntityManager, id: number): Promise<number[]> {
  const parents = new Map((await em.find(ProductCategory, {}, { fields: ['id', 'parentId'] })).map((c) => [c.id, c.parentId ?? null]));
  const chain: number[] = [];
  for (let at = parents.get(id) ?? null; at !== null && !chain.includes(at); at = parents.get(at) ?? null) chain.push(at);
  return chain;
}

export const editProductCategory = (em: EntityManager, id: number, values: { name?: string; parentId?: number | null }) => editRow(em, ProductCategory, id, values);

/** What a deletion did: `deleted`, `missing` (not the shop's), or the reason it is refused (409). */
export type DeleteOutcome = { kind: 'deleted' } | { kind: 'missing' } | { kind: 'in_use'; reason: string };

/**
 * Deletes the shop's row under its lock unless `usedBy` names a use (checked inside the same
 * transaction, so two deletions, or a deletion and a repeat, queue: the second finds it gone).
 */
async function deleteUnlessUsed<T extends object>(em: EntityManager, entity: EntityName<T>, id: number, usedBy: (tx: EntityManager, row: T) => Promise<string | null>): Promise<DeleteOutcome> {
  return em.transactional(async (tx) => {
    const row = await lockRow(tx, entity, id);
    if (!row) return { kind: 'missing' } as const;
    const reason = await usedBy(tx, row);
    if (reason) return { kind: 'in_use', reason } as const;
    tx.remove(row);
    return { kind: 'deleted' } as const;
  });
}

const countOf = async (tx: EntityManager, sql: string, params: unknown[]): Promise<number> => Number((await tx.execute<{ n: string }[]>(sql, params))[0]?.n ?? 0);

/** A category is in use while a product (not deleted) lists it or is fed under it, or while it has sub-categories. */
export function deleteProductCategory(em: EntityManager, shopId: string, id: number): Promise<DeleteOutcome> {
  return deleteUnlessUsed(em, ProductCategory, id, async (tx) => {
    const products = await countOf(tx, 'select count(*) as n from shop_products where shop_id = ? and not hidden and (product_category_ids @> array[?]::int[] or feed_category_id = ?)', [shopId, id, id]);
    if (products > 0) return `product category ${id} is used by ${products} product(s)`;
    const children = await countOf(tx, 'select count(*) as n from shop_product_categories where shop_id = ? and parent_id = ?', [shopId, id]);
    return children > 0 ? `product category ${id} has ${children} sub-categor${children === 1 ? 'y' : 'ies'}` : null;
  });
}

/** A sender is in use while an order status's mail or a mail sequence sends from it. */
export function deleteSender(em: EntityManager, shopId: string, id: number): Promise<DeleteOutcome> {
  return deleteUnlessUsed(em, Sender, id, async (tx) => {
    const statuses = await countOf(tx, 'select count(*) as n from shop_order_statuses where shop_id = ? and sender_id = ?', [shopId, id]);
    if (statuses > 0) return `sender ${id} is used by ${statuses} order status mail(s)`;
    const sequences = await countOf(tx, 'select count(*) as n from shop_mail_sequences where shop_id = ? and sender_id = ?', [shopId, id]);
    return sequences > 0 ? `sender ${id} is used by ${sequences} mail sequence(s)` : null;
  });
}

/**
 * A built-in status is never deleted (its kind drives placing, clearing, canceling). A user status
 * is in use while orders are at it, and while something would point at nothing without it: the
 * club integration's status, another status's automatic rule after it, a sequence's trigger.
 */
export function deleteOrderStatus(em: EntityManager, shopId: string, id: number): Promise<DeleteOutcome> {
  return deleteUnlessUsed(em, OrderStatus, id, async (tx, status: IOrderStatus) => {
    if (isBuiltInStatus(status.kind)) return `order status ${id} is built in (${status.kind}) and cannot be deleted`;
    const uses: [string, string][] = [
      ['select count(*) as n from shop_orders where shop_id = ? and order_status_id = ?', 'order(s) are at it'],
      ["select count(*) as n from shop_order_statuses where shop_id = ? and (automatically_set->>'automatically_set_after_status_id')::int = ?", 'automatic status rule(s) follow it'],
      ['select count(*) as n from shop_mail_sequences where shop_id = ? and status_id = ?', 'mail sequence(s) are triggered by it'],
      ['select count(*) as n from shop_club_integrations where shop_id = ? and order_status_id = ?', 'the club integration sends at it'],
    ];
    for (const [sql, what] of uses) {
      const n = await countOf(tx, sql, [shopId, id]);
      if (n > 0) return `order status ${id} is in use: ${n} ${what}`;
    }
    return null;
  });
}
