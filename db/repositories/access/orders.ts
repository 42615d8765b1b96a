import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessOrder, type IAccessOrder } from '../../entities/index.ts';
import type { OrderInput, OrderItem } from '../../../domain/access/order-contents.ts';
import { nextCommandSeqs } from './command-seq.ts';

/** An access-interface order as the API needs it (registration and cancellation). */
export interface RegisteredOrder {
  id: string;
  status: 'registered' | 'cancelled';
  fulfilled_at: Date | null;
  email: string;
  ordered_contents: OrderItem[];
  seq: string;
}

const ORDER_COLUMNS = 'id, status, fulfilled_at, email, ordered_contents, seq';

/** The platform's order with this `external_id`, if registered. */
export async function findOrderByExternalId(em: EntityManager, platformId: string, externalId: string): Promise<RegisteredOrder | undefined> {
  const rows = await em.execute<RegisteredOrder[]>(`select ${ORDER_COLUMNS} from orders where platform_id = ? and external_id = ?`, [platformId, externalId]);
  return rows[0];
}

/** Inserts the order unless its `external_id` is known; undefined when another request won. */
export async function insertOrderUnlessKnown(em: EntityManager, platformId: string, order: OrderInput, seq: number): Promise<RegisteredOrder | undefined> {
  const rows: RegisteredOrder[] = await em.execute(
    `insert into orders (id, platform_id, external_id, email, ordinal_number, gift_code, ordered_contents, status, seq, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?::jsonb, 'registered', ?, now())
     on conflict (platform_id, external_id) do nothing
     returning ${ORDER_COLUMNS}`,
    [platformId, order.external_id, order.email, order.ordinal_number ?? null, order.gift_code ?? null, JSON.stringify(order.ordered_contents), seq],
  );
  return rows[0];
}

/**
 * Registers the order unless its `external_id` is known (the first registration wins; a repeat
 * never changes it): the stored order and whether this call created it. `beforeInsert` checks a
 * new order (e.g. unknown courses) and throws to refuse it. Used by `POST /api/orders` and by the
 * shop's course access (issue 14).
 */
export async function registerOrder(
  em: EntityManager,
  platformId: string,
  order: OrderInput,
  beforeInsert: () => Promise<void> = async () => {},
): Promise<{ order: RegisteredOrder; created: boolean }> {
  const known = await findOrderByExternalId(em, platformId, order.external_id);
  if (known) return { order: known, created: false };
  await beforeInsert();
  const [seq] = await nextCommandSeqs(em, 1);
  const inserted = await insertOrderUnlessKnown(em, platformId, order, seq!);
  // A concurrent identical registration inserted it first: read what it stored.
  return { order: inserted ?? (await findOrderByExternalId(em, platformId, order.external_id))!, created: inserted !== undefined };
}

/** Whether the order's fulfilment still has to be started (also on a repeat: a first attempt may have died before the start). */
export function awaitsFulfilment(order: RegisteredOrder): boolean {
  return order.status === 'registered' && !order.fulfilled_at;
}

/** Marks the order cancelled (keeping the first cancellation time); false for an unknown order. */
export async function markOrderCancelled(em: EntityManager, platformId: string, orderId: string): Promise<boolean> {
  const rows: { id: string }[] = await em.execute(
    `update orders set status = 'cancelled', cancelled_at = coalesce(cancelled_at, now())
      where id = ? and platform_id = ? returning id`,
    [orderId, platformId],
  );
  return rows.length > 0;
}

/** One order of the platform the manager is scoped to, as registered, or null (another platform's order too). */
export function findAccessOrder(em: EntityManager, id: string): Promise<IAccessOrder | null> {
  return em.findOne(AccessOrder, { id });
}
