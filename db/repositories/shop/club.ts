import type { EntityManager } from '@mikro-orm/postgresql';
import { ClubWebhookDelivery, ClubWebhookDeliveryAttempt, type IClubWebhookDelivery, type IClubWebhookDeliveryAttempt } from '../../entities/shop/index.ts';
import { SHOP_WEBHOOK_TABLES, type WebhookTables } from '../shared/webhook-deliveries.ts';
import { intArray } from '../shared/array-literal.ts';

/**
 * The club integration's rows (db/entities/shop/club.ts): what the configuration endpoints read
 * and write, and the club webhook's delivery. Every statement names the shop.
 */

/** The club's tables as the platform's webhook attempt reads them: the address is sealed, the key may be absent. */
export const CLUB_WEBHOOK_TABLES: WebhookTables = {
  webhooks: 'shop_club_integrations',
  deliveries: 'shop_club_webhook_deliveries',
  attempts: 'shop_club_webhook_delivery_attempts',
  tenant: 'shop_id',
  // The event is stored with the delivery, as a shop webhook's.
  event: SHOP_WEBHOOK_TABLES.event,
  target: { columns: 'w.url_sealed as url, w.active, null as deleted_at, w.secret_sealed', urlSealed: true },
};

export interface ClubRow {
  id: string;
  active: boolean;
  url_sealed: string;
  host: string;
  secret_sealed: string | null;
  order_status_id: number;
}

export interface ClubProductRow {
  id: number;
  name: string;
}

/** The shop's club integration, or null before the first PATCH; `forUpdate` locks it for the transaction. */
export async function findClub(em: EntityManager, shopId: string, forUpdate = false): Promise<ClubRow | null> {
  const rows = await em.execute<ClubRow[]>(
    `select id, active, url_sealed, host, secret_sealed, order_status_id from shop_club_integrations where shop_id = ?${forUpdate ? ' for update' : ''}`,
    [shopId],
  );
  return rows[0] ?? null;
}

/** The listed products in the order they were added. */
export function clubProducts(em: EntityManager, shopId: string, clubId: string): Promise<ClubProductRow[]> {
  return em.execute<ClubProductRow[]>(
    `select p.id, p.name from shop_club_products c join shop_products p on p.id = c.product_id
      where c.shop_id = ? and c.club_id = ? order by c.id`,
    [shopId, clubId],
  );
}

export async function isShopOrderStatus(em: EntityManager, shopId: string, statusId: number): Promise<boolean> {
  const rows = await em.execute('select 1 from shop_order_statuses where shop_id = ? and id = ?', [shopId, statusId]);
  return rows.length > 0;
}

/** Serialises the club writes of one shop (the first PATCH creates the row: two at once must not both try). */
export async function lockShopForClubWrite(tx: EntityManager, shopId: string): Promise<void> {
  await tx.execute('select 1 from shops where id = ? for update', [shopId]);
}

export interface ClubValues {
  active?: boolean;
  urlSealed?: string;
  host?: string;
  /** Null clears the key; undefined keeps it. */
  secretSealed?: string | null;
  orderStatusId?: number;
}

/** Creates the integration (under lockShopForClubWrite) and returns its id. */
export async function insertClub(tx: EntityManager, shopId: string, values: Required<Pick<ClubValues, 'urlSealed' | 'host' | 'orderStatusId'>> & ClubValues): Promise<string> {
  const [row] = await tx.execute<{ id: string }[]>(
    `insert into shop_club_integrations (id, shop_id, active, url_sealed, host, secret_sealed, order_status_id, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, now(), now()) returning id`,
    [shopId, values.active ?? true, values.urlSealed, values.host, values.secretSealed ?? null, values.orderStatusId],
  );
  return row!.id;
}

const COLUMNS: Record<keyof ClubValues, string> = { active: 'active', urlSealed: 'url_sealed', host: 'host', secretSealed: 'secret_sealed', orderStatusId: 'order_status_id' };

/** Changes only the given values. */
export async function updateClub(tx: EntityManager, shopId: string, clubId: string, values: ClubValues): Promise<void> {
  const sent = (Object.keys(COLUMNS) as (keyof ClubValues)[]).filter((key) => values[key] !== undefined);
  if (sent.length === 0) return;
  await tx.execute(`update shop_club_integrations set ${sent.map((key) => `${COLUMNS[key]} = ?`).join(', ')}, updated_at = now() where shop_id = ? and id = ?`, [
    ...sent.map((key) => values[key]),
    shopId,
    clubId,
  ]);
}

/** Replaces the product list with `productIds`, in that order. */
export async function replaceClubProducts(tx: EntityManager, shopId: string, clubId: string, productIds: readonly number[]): Promise<void> {
  await tx.execute('delete from shop_club_products where shop_id = ? and club_id = ?', [shopId, clubId]);
  await addClubProducts(tx, shopId, clubId, productIds);
}

/** Adds the products not on the list yet, in the order given; those on it stay where they are. */
export async function addClubProducts(tx: EntityManager, shopId: string, clubId: string, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx.execute(
    `insert into shop_club_products (shop_id, club_id, product_id)
     select ?, ?, t.product_id from unnest(?::int[]) with ordinality as t(product_id, n) order by t.n
     on conflict (club_id, product_id) do nothing`,
    [shopId, clubId, intArray(productIds)],
  );
}

/** Removes one product from the list; false when it was not on it. */
export async function removeClubProduct(tx: EntityManager, shopId: string, clubId: string, productId: number): Promise<boolean> {
  const rows = await tx.execute('delete from shop_club_products where shop_id = ? and club_id = ? and product_id = ? returning id', [shopId, clubId, productId]);
  return rows.length > 0;
}

export interface ClubEvent {
  clubId: string;
  orderId: number;
  orderStatusId: number;
  /** The transition that reached the status (`clear` or `status:<change id>`). */
  source: string;
  eventId: string;
  type: string;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/**
 * The club webhook of an order at a status, made once: a later call for the same order and status
 * finds the first one, with the transition that opened it.
 */
export async function openClubDelivery(em: EntityManager, shopId: string, event: ClubEvent): Promise<{ id: string; source: string }> {
  await em.execute(
    `insert into shop_club_webhook_deliveries (id, shop_id, webhook_id, order_id, order_status_id, source, event_id, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, 'pending', 0, clock_timestamp(), clock_timestamp())
     on conflict (order_id, order_status_id) do nothing`,
    [shopId, event.clubId, event.orderId, event.orderStatusId, event.source, event.eventId, event.type, JSON.stringify(event.payload), event.occurredAt],
  );
  const [row] = await em.execute<{ id: string; source: string }[]>('select id, source from shop_club_webhook_deliveries where shop_id = ? and order_id = ? and order_status_id = ?', [
    shopId,
    event.orderId,
    event.orderStatusId,
  ]);
  return row!;
}

/**
 * The sent products the club list may hold (the shop's, not deleted; visible, or hidden but already
 * on the club's list: a product with orders is hidden, not deleted, and stays listed), locked
 * against deletion until the write commits, so a product removed meanwhile never breaks the write.
 */
export async function listableProductIds(tx: EntityManager, shopId: string, productIds: readonly number[], clubId: string | null): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await tx.execute<{ id: number }[]>(
    `select p.id from shop_products p where p.shop_id = ? and p.id = any(?::int[])
       and (not p.hidden or exists (select 1 from shop_club_products c where c.shop_id = p.shop_id and c.club_id = ? and c.product_id = p.id))
     for share of p`,
    [shopId, intArray(productIds), clubId],
  );
  return new Set(rows.map((row) => row.id));
}

/** What happened to a club webhook's delivery: its order and transition, the host, its state and its last attempt. */
export interface ClubDeliveryOutcomeRow {
  order_id: number;
  source: string;
  host: string;
  status: string;
  status_code: number | null;
  error: string | null;
}

export async function clubDeliveryOutcome(em: EntityManager, shopId: string, deliveryId: string): Promise<ClubDeliveryOutcomeRow | null> {
  const [row] = await em.execute<ClubDeliveryOutcomeRow[]>(
    `select d.order_id, d.source, w.host, d.status, a.status_code, a.error
       from shop_club_webhook_deliveries d join shop_club_integrations w on w.id = d.webhook_id
       left join lateral (select status_code, error from shop_club_webhook_delivery_attempts x
                           where x.shop_id = d.shop_id and x.delivery_id = d.id order by x.attempted_at desc limit 1) a on true
      where d.shop_id = ? and d.id = ?`,
    [shopId, deliveryId],
  );
  return row ?? null;
}

/** The shop's club webhook deliveries (the entity manager is scoped to the shop), newest first. */
export function clubDeliveryPage(em: EntityManager, window: { limit: number; offset: number }): Promise<[IClubWebhookDelivery[], number]> {
  return em.findAndCount(ClubWebhookDelivery, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, ...window });
}

/** The attempts of the given club deliveries, newest first. */
export function clubAttemptsOf(em: EntityManager, deliveryIds: readonly string[]): Promise<IClubWebhookDeliveryAttempt[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return em.find(ClubWebhookDeliveryAttempt, { delivery: { $in: [...deliveryIds] } }, { orderBy: { attemptedAt: 'desc', id: 'desc' } });
}

/** One of the shop's club webhook deliveries (the entity manager is scoped to the shop). */
export function findClubDelivery(em: EntityManager, shopId: string, deliveryId: string): Promise<IClubWebhookDelivery | null> {
  return em.findOne(ClubWebhookDelivery, { id: deliveryId.toLowerCase(), shop: shopId });
}
