/**
 * Subscribers for API tests, written through the ORM: activation by a cleared order is the renewal
 * workflow's business, tested there; these tests need rows in given states.
 */
import { randomUUID } from 'node:crypto';
import { Subscriber, SubscriberPeriod, type ISubscriber } from '../../db/entities/shop/index.ts';
import type { Orm } from '../../db/orm.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';
import type { RenewalItem, SubscriberStatus } from '../../domain/shop/subscription-rules.ts';

export interface SubscriberRow {
  planId: number;
  email?: string;
  customIdentifier?: string | null;
  productId?: number | null;
  status?: SubscriberStatus;
  renewalPaused?: boolean;
  renewalItems?: RenewalItem[];
  /** Oldest first; the last one is the running period. */
  periods?: { startsAt: Date; endsAt: Date; kind?: 'initial' | 'renewal' }[];
}

/** A subscriber of `shopId` with its periods; returns its id. */
export async function insertSubscriber(orm: Orm, shopId: string, row: SubscriberRow): Promise<number> {
  const em = orm.em.fork();
  em.setFilterParams(SHOP_FILTER, { shopId });
  const subscriber: ISubscriber = em.create(Subscriber, {
    shop: shopId,
    serviceRef: `sub_${randomUUID()}`,
    email: row.email ?? `subscriber-${randomUUID().slice(0, 8)}@example.com`,
    customIdentifier: row.customIdentifier ?? null,
    plan: row.planId,
    product: row.productId ?? null,
    status: row.status ?? 'active',
    renewalPaused: row.renewalPaused ?? false,
    renewalItems: row.renewalItems ?? [],
    paymentReference: 'tok_test_saved_card',
  });
  for (const [index, period] of (row.periods ?? []).entries()) {
    em.create(SubscriberPeriod, { shop: shopId, subscriber, kind: period.kind ?? (index === 0 ? 'initial' : 'renewal'), startsAt: period.startsAt, endsAt: period.endsAt });
  }
  await em.flush();
  return subscriber.id;
}
