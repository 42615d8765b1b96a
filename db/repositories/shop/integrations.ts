/**
 * The shop's outside tools (issue 23): its GA4 property and mailing tool, the Stripe customers of
 * its buyers and the payments started for its orders. Every function takes an entity manager
 * scoped to the shop (useShop, shopEm); raw SQL names the shop itself. Secrets arrive and leave
 * sealed (adapters/secrets/secret-box.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderPayment, StripeCustomer, type IOrderPayment } from '../../entities/shop/index.ts';
import type { Sql } from '../shared/pooled-transaction.ts';

export interface AnalyticsRow {
  measurementId: string;
  apiSecretSealed: string;
}

export interface MarketingRow {
  provider: string;
  apiKeySealed: string;
  listId: string;
  tags: string[];
  productTags: Record<string, string[]>;
}

export interface IntegrationSettings {
  analytics: AnalyticsRow | null;
  marketing: MarketingRow | null;
}

/** The shop's GA4 property and mailing tool, in one statement (a clearing's analytics and marketing parts both need them). */
export async function integrationSettings(sql: Sql, shopId: string): Promise<IntegrationSettings> {
  const [row] = await sql.execute<IntegrationSettings[]>(
    `select (select jsonb_build_object('measurementId', measurement_id, 'apiSecretSealed', api_secret_sealed)
               from shop_analytics_integrations where shop_id = ?) as analytics,
            (select jsonb_build_object('provider', provider, 'apiKeySealed', api_key_sealed, 'listId', list_id, 'tags', tags, 'productTags', product_tags)
               from shop_marketing_integrations where shop_id = ?) as marketing`,
    [shopId, shopId],
  );
  return row!;
}

/** Sets the shop's GA4 property in one statement (concurrent PUTs: the last one wins). */
export async function saveAnalyticsSettings(em: EntityManager, shopId: string, row: AnalyticsRow): Promise<void> {
  await em.execute(
    `insert into shop_analytics_integrations (shop_id, measurement_id, api_secret_sealed, updated_at) values (?, ?, ?, now())
     on conflict (shop_id) do update set measurement_id = excluded.measurement_id, api_secret_sealed = excluded.api_secret_sealed, updated_at = excluded.updated_at`,
    [shopId, row.measurementId, row.apiSecretSealed],
  );
}

export async function saveMarketingSettings(em: EntityManager, shopId: string, row: MarketingRow): Promise<void> {
  await em.execute(
    `insert into shop_marketing_integrations (shop_id, provider, api_key_sealed, list_id, tags, product_tags, updated_at) values (?, ?, ?, ?, ?::jsonb, ?::jsonb, now())
     on conflict (shop_id) do update set provider = excluded.provider, api_key_sealed = excluded.api_key_sealed, list_id = excluded.list_id,
       tags = excluded.tags, product_tags = excluded.product_tags, updated_at = excluded.updated_at`,
    [shopId, row.provider, row.apiKeySealed, row.listId, JSON.stringify(row.tags), JSON.stringify(row.productTags)],
  );
}

/** The stored Stripe customer of a buyer e-mail (any case), or null. */
export async function storedStripeCustomer(em: EntityManager, email: string): Promise<string | null> {
  const row = await em.findOne(StripeCustomer, { email: email.toLowerCase() });
  return row?.customerId ?? null;
}

/** Stores the customer of an e-mail; a concurrent store keeps the first, whose id is answered. */
export async function storeStripeCustomer(em: EntityManager, shopId: string, email: string, customerId: string): Promise<string> {
  const [row] = await em.execute<{ customer_id: string }[]>(
    `insert into shop_stripe_customers (shop_id, email, customer_id, created_at) values (?, ?, ?, now())
     on conflict (shop_id, email) do update set email = excluded.email returning customer_id`,
    [shopId, email.toLowerCase(), customerId],
  );
  return row!.customer_id;
}

export function paymentOfOrder(em: EntityManager, orderId: number): Promise<IOrderPayment | null> {
  return em.findOne(OrderPayment, { order: orderId }, { refresh: true });
}

export function paymentByIntent(em: EntityManager, paymentIntentId: string): Promise<IOrderPayment | null> {
  return em.findOne(OrderPayment, { paymentIntentId }, { refresh: true });
}

/** Records the payment started for an order; a concurrent record keeps the first. Answers the stored row. */
export async function recordOrderPayment(
  em: EntityManager,
  row: { shopId: string; orderId: number; provider: string; paymentIntentId: string; amount: string; currency: string; customerId: string; saveForLater: boolean },
): Promise<IOrderPayment> {
  await em.execute(
    `insert into shop_order_payments (shop_id, order_id, provider, payment_intent_id, amount, currency, customer_id, save_for_later, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict (order_id) do nothing`,
    [row.shopId, row.orderId, row.provider, row.paymentIntentId, row.amount, row.currency, row.customerId, row.saveForLater],
  );
  return (await paymentOfOrder(em, row.orderId))!;
}

/** The payment succeeded: its time and the card the customer saved (kept from the first report). */
export async function markPaymentSucceeded(em: EntityManager, shopId: string, paymentIntentId: string, paymentMethodId: string | null, at: Date): Promise<void> {
  await em.execute(
    `update shop_order_payments set succeeded_at = coalesce(succeeded_at, ?), payment_method_id = coalesce(payment_method_id, ?) where shop_id = ? and payment_intent_id = ?`,
    [at, paymentMethodId, shopId, paymentIntentId],
  );
}
