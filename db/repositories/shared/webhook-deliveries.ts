import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from './pooled-transaction.ts';
import type { DomainEventType } from '../../../domain/shared/events.ts';
import type { WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';
import { arrayLiteral } from './array-literal.ts';

/**
 * Webhook deliveries as the delivery workflow's activities read and write them: one delivery per
 * (event, webhook), its attempts, and the claim an attempt holds while it sends. The claim and the
 * delivery's creation are single statements that decide under concurrency.
 *
 * A delivery belongs to a tenant that is a platform or a shop. Each kind has its own tables with
 * the same columns (`webhooks`, `webhook_deliveries`, `webhook_delivery_attempts` with
 * `platform_id`; `shop_webhooks`, ... with `shop_id`), so every statement of an attempt is written
 * once here and runs on either table set, always filtered by the tenant column.
 */

export interface DeliveryRef {
  platformId: string;
  deliveryId: string;
}

/** The tables of one tenant kind's webhooks (constants: never built from input). */
export interface WebhookTables {
  webhooks: string;
  deliveries: string;
  attempts: string;
  tenant: 'platform_id' | 'shop_id';
  /** `event_id, type, payload, occurred_at` of the delivery `d`, and the join (if any) that gives them. */
  event: { columns: string; join: string };
  /**
   * `url, active, deleted_at, secret_sealed` of the webhook `w`; `w.url, w.active, w.deleted_at,
   * w.secret_sealed` when unset. A target whose address carries a token keeps it sealed
   * (`urlSealed`); a null `secret_sealed` sends the delivery unsigned.
   */
  target?: { columns: string; urlSealed: boolean };
}

/** The platform's: the event comes from its outbox (`domain_events`). */
export const PLATFORM_WEBHOOK_TABLES: WebhookTables = {
  webhooks: 'webhooks',
  deliveries: 'webhook_deliveries',
  attempts: 'webhook_delivery_attempts',
  tenant: 'platform_id',
  event: { columns: 'e.id as event_id, e.type, e.payload, e.occurred_at', join: 'join domain_events e on e.id = d.event_id' },
};

/** A shop's: the event is stored with the delivery (db/entities/shop/webhook.ts). */
export const SHOP_WEBHOOK_TABLES: WebhookTables = {
  webhooks: 'shop_webhooks',
  deliveries: 'shop_webhook_deliveries',
  attempts: 'shop_webhook_delivery_attempts',
  tenant: 'shop_id',
  event: { columns: 'd.event_id, d.event_type as type, d.payload, d.occurred_at', join: '' },
};

/** One delivery of one tenant: where it lives and whose it is. */
export interface TenantDelivery {
  tables: WebhookTables;
  tenantId: string;
  deliveryId: string;
}

/** Reads a delivery entity again, after a statement here changed its row behind the identity map (a redelivery's claim). */
export async function reloadDelivery(em: EntityManager, delivery: object): Promise<void> {
  await em.refresh(delivery);
}

/** The platform's delivery `ref` as a TenantDelivery. */
export const platformDelivery = (ref: DeliveryRef): TenantDelivery => ({ tables: PLATFORM_WEBHOOK_TABLES, tenantId: ref.platformId, deliveryId: ref.deliveryId });

/** The platform's active webhooks subscribed to at least one of these event types, oldest first. */
export function subscribedWebhooks(em: Sql, platformId: string, types: readonly DomainEventType[]): Promise<{ id: string; events: DomainEventType[] }[]> {
  // em.execute: inside the caller's transaction when there is one (the grant step looks them up there).
  return em.execute(
    `select id, events from webhooks
      where platform_id = ? and active and deleted_at is null and events && ?::text[]
      order by created_at, id`,
    [platformId, arrayLiteral(types)],
  );
}

/** The delivery of an (event, webhook) pair, made once; a repeated call finds it. Undefined when the event is unknown. */
export async function openDelivery(em: EntityManager, d: { platformId: string; webhookId: string; eventId: string }): Promise<string | undefined> {
  const connection = em.getConnection();
  await connection.execute(
    `insert into webhook_deliveries (id, platform_id, webhook_id, event_id, event_type, status, attempt_count, redeliveries, created_at, updated_at)
     select gen_random_uuid(), e.platform_id, ?, e.id, e.type, 'pending', 0, 0, clock_timestamp(), clock_timestamp()
       from domain_events e where e.id = ? and e.platform_id = ?
     on conflict (webhook_id, event_id) do nothing`,
    [d.webhookId, d.eventId, d.platformId],
  );
  const rows: { id: string }[] = await connection.execute('select id from webhook_deliveries where webhook_id = ? and event_id = ? and platform_id = ?', [
    d.webhookId,
    d.eventId,
    d.platformId,
  ]);
  return rows[0]?.id;
}

/** What an attempt needs: the delivery's state, its webhook and its event. */
export interface DeliveryToAttempt {
  status: WebhookDeliveryStatus;
  next_attempt_at: string | Date | null;
  url: string;
  active: boolean;
  deleted_at: string | Date | null;
  /** Null only for a target that may send unsigned (the club integration without a key). */
  secret_sealed: string | null;
  webhook_id: string;
  event_id: string;
  /** A platform's domain event type or a shop's event (domain/shop/webhooks.ts). */
  type: string;
  payload: Record<string, unknown>;
  occurred_at: string | Date;
}

/**
 * Claims the delivery for an attempt until `until` (a lease in `next_attempt_at`) when it is
 * pending and due at `now`, and reads what the attempt needs, in one statement: the row is as it
 * was before the claim, and `claimed` is false when another attempt holds it, it is not due, or it
 * is over. Undefined when there is no such delivery.
 */
export async function claimDeliveryToAttempt(
  em: EntityManager,
  { tables: t, tenantId, deliveryId }: TenantDelivery,
  until: Date,
  now: Date,
): Promise<(DeliveryToAttempt & { claimed: boolean }) | undefined> {
  const rows: (DeliveryToAttempt & { claimed: boolean })[] = await em.getConnection().execute(
    `with claim as (
       update ${t.deliveries} set next_attempt_at = ?, updated_at = now()
        where id = ? and ${t.tenant} = ? and status = 'pending' and (next_attempt_at is null or next_attempt_at <= ?)
       returning id)
     select d.status, d.next_attempt_at, w.id as webhook_id, ${t.target?.columns ?? 'w.url, w.active, w.deleted_at, w.secret_sealed'}, ${t.event.columns},
            exists (select 1 from claim) as claimed
       from ${t.deliveries} d
       join ${t.webhooks} w on w.id = d.webhook_id
       ${t.event.join}
      where d.id = ? and d.${t.tenant} = ?`,
    [until, deliveryId, tenantId, now, deliveryId, tenantId],
  );
  return rows[0];
}

/** A delivery whose webhook was switched off or deleted ends `disabled` (a claim on it goes with it). */
export async function disableDelivery(em: EntityManager, { tables: t, tenantId, deliveryId }: TenantDelivery): Promise<void> {
  await em.getConnection().execute(`update ${t.deliveries} set status = 'disabled', next_attempt_at = null, updated_at = now() where id = ? and ${t.tenant} = ?`, [deliveryId, tenantId]);
}

/** Moves the lease from `held` to `until`; false when the claim is no longer this attempt's. */
export async function renewDeliveryClaim(em: EntityManager, { tables: t, tenantId, deliveryId }: TenantDelivery, held: Date, until: Date): Promise<boolean> {
  const rows: unknown[] = await em.getConnection().execute(
    `update ${t.deliveries} set next_attempt_at = ? where id = ? and ${t.tenant} = ? and status = 'pending' and next_attempt_at = ? returning id`,
    [until, deliveryId, tenantId, held],
  );
  return rows.length > 0;
}

/** The automatic (not manual) attempts recorded so far. */
export async function automaticAttemptCount(em: EntityManager, { tables: t, tenantId, deliveryId }: TenantDelivery): Promise<number> {
  const [row] = await em.getConnection().execute<{ n: string }[]>(`select count(*) as n from ${t.attempts} where delivery_id = ? and ${t.tenant} = ? and not manual`, [deliveryId, tenantId]);
  return Number(row!.n);
}

export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  manual: boolean;
}

/**
 * Records one attempt and the delivery's new state (one more attempt) in one statement, so both or
 * neither are there without a transaction of their own; a 410 also switches the webhook off.
 */
export async function recordAttempt(
  sql: Sql,
  ref: TenantDelivery & { webhookId: string },
  attempt: AttemptRecord,
  delivery: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null },
): Promise<void> {
  const t = ref.tables;
  await sql.execute(
    `with attempt as (
       insert into ${t.attempts} (id, ${t.tenant}, delivery_id, attempted_at, status_code, duration_ms, error, manual)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?)),
     gone as (
       update ${t.webhooks} set active = false, updated_at = now() where id = ? and ${t.tenant} = ? and ?::int = 410)
     update ${t.deliveries} set status = ?, next_attempt_at = ?, attempt_count = attempt_count + 1, updated_at = now() where id = ? and ${t.tenant} = ?`,
    [
      ...[ref.tenantId, ref.deliveryId, attempt.at, attempt.statusCode, attempt.durationMs, attempt.error, attempt.manual],
      ...[ref.webhookId, ref.tenantId, attempt.statusCode],
      ...[delivery.status, delivery.nextAttemptAt, ref.deliveryId, ref.tenantId],
    ],
  );
}

/**
 * Makes a finished delivery `pending` again for a manual redelivery, in one statement that only
 * succeeds while the delivery is still in `from`: two redeliveries cannot both claim it. The
 * redelivery's number, or undefined when another request claimed it first.
 */
export async function claimRedelivery(em: EntityManager, { tables: t, tenantId, deliveryId }: TenantDelivery, from: WebhookDeliveryStatus): Promise<number | undefined> {
  const rows: { redeliveries: number }[] = await em.execute(
    `update ${t.deliveries} set status = 'pending', next_attempt_at = null, redeliveries = redeliveries + 1, updated_at = now()
      where id = ? and ${t.tenant} = ? and status = ? returning redeliveries`,
    [deliveryId, tenantId, from],
  );
  return rows[0]?.redeliveries;
}

