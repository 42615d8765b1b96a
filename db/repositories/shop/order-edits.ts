import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderAttribute, OrderNote } from '../../../domain/shop/order.ts';

/** The panel's edits of an order (DESIGN.md section 8): fields outside pricing and status. */
export interface OrderEdits {
  trackingNumber?: string;
  trackingUrl?: string;
  deliveryPointCode?: string | null;
  invoiceRecipientName?: string;
  transactionId?: string | null;
  orderAttributes?: OrderAttribute[];
}

const COLUMNS: Record<keyof OrderEdits, string> = {
  trackingNumber: 'tracking_number',
  trackingUrl: 'tracking_url',
  deliveryPointCode: 'delivery_point_code',
  invoiceRecipientName: 'invoice_recipient_name',
  transactionId: 'transaction_id',
  orderAttributes: 'order_attributes',
};

/** Writes the fields sent, in one statement; false when the order is not the shop's. */
export async function editOrder(em: EntityManager, shopId: string, orderId: number, edits: OrderEdits): Promise<boolean> {
  const sent = (Object.keys(COLUMNS) as (keyof OrderEdits)[]).filter((key) => edits[key] !== undefined);
  const sets = sent.map((key) => `${COLUMNS[key]} = ?${key === 'orderAttributes' ? '::jsonb' : ''}`);
  const values = sent.map((key) => (key === 'orderAttributes' ? JSON.stringify(edits[key]) : edits[key]));
  const rows = await em.execute<{ id: number }[]>(
    `update shop_orders set ${[...sets, 'updated_at = now()'].join(', ')} where shop_id = ? and id = ? returning id`,
    [...values, shopId, orderId],
  );
  return rows.length > 0;
}

/** Appends an admin note, in one statement (concurrent notes all stay); null when the order is not the shop's. */
export async function addOrderNote(em: EntityManager, shopId: string, orderId: number, content: string, at: Date): Promise<OrderNote | null> {
  const note: OrderNote = { content, created_at: at.toISOString() };
  const rows = await em.execute<{ id: number }[]>(
    `update shop_orders set notes = coalesce(notes, '[]'::jsonb) || ?::jsonb, updated_at = now() where shop_id = ? and id = ? returning id`,
    [JSON.stringify([note]), shopId, orderId],
  );
  return rows.length > 0 ? note : null;
}
