/**
 * Subscribers and their periods (spec: Subscriber, Endpoints / Subscribers). A subscriber is active
 * until the end of its latest period; the list's filters compare that end. The request's entity
 * manager is scoped to the shop; raw SQL names the shop itself.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Product, Subscriber, SubscriberPeriod, type ISubscriber, type ISubscriberPeriod } from '../../entities/shop/index.ts';
import { periodEndProblem, type RenewalItem, type SubscriberStatus } from '../../../domain/shop/subscription-rules.ts';
import type { ListWindow } from './reference.ts';

export interface SubscriberFilter {
  email?: string;
  planId?: number;
  customIdentifier?: string;
  active?: boolean;
  expiresBefore?: Date;
  expiresAfter?: Date;
}

/** The end of a subscriber's latest period (null without periods), as SQL on `s`. */
const LATEST_END = '(select max(p.ends_at) from shop_subscriber_periods p where p.subscriber_id = s.id)';
/** The reply's `active`: status active and the latest period not over (domain: subscriberIsActive). */
const ACTIVE = `(s.status = 'active' and coalesce(${LATEST_END} > ?, false))`;

/** A page of subscribers matching every filter given, by id, each with the end of its latest period (`active_until`); with the total. */
export async function listSubscribers(
  em: EntityManager,
  shopId: string,
  filter: SubscriberFilter,
  now: Date,
  window: ListWindow,
): Promise<{ subscribers: ISubscriber[]; latestEnds: Map<number, Date>; total: number }> {
  const where = ['s.shop_id = ?'];
  const params: unknown[] = [shopId];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (filter.email !== undefined) add('lower(s.email) = lower(?)', filter.email);
  if (filter.planId !== undefined) add('s.plan_id = ?', filter.planId);
  if (filter.customIdentifier !== undefined) add('s.custom_identifier = ?', filter.customIdentifier);
  if (filter.active !== undefined) add(filter.active ? ACTIVE : `not ${ACTIVE}`, now);
  if (filter.expiresBefore) add(`${LATEST_END} < ?`, filter.expiresBefore);
  if (filter.expiresAfter) add(`${LATEST_END} > ?`, filter.expiresAfter);
  const rows = await em.execute<{ id: number; latest_end: Date | null; total: number }[]>(
    `select s.id, ${LATEST_END} as latest_end, count(*) over ()::int as total from shop_subscribers s where ${where.join(' and ')} order by s.id limit ? offset ?`,
    [...params, window.limit, window.offset],
  );
  if (rows.length === 0) {
    const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n from shop_subscribers s where ${where.join(' and ')}`, params);
    return { subscribers: [], latestEnds: new Map(), total: count!.n };
  }
  const subscribers = await em.find(Subscriber, { id: { $in: rows.map((row) => row.id) } }, { orderBy: { id: 'asc' } });
  const latestEnds = new Map(rows.filter((row) => row.latest_end !== null).map((row) => [row.id, new Date(row.latest_end!)]));
  return { subscribers, latestEnds, total: rows[0]!.total };
}

export function findSubscriber(em: EntityManager, id: number) {
  return em.findOne(Subscriber, { id });
}

/** The periods of the subscribers, oldest first. */
export function periodsOf(em: EntityManager, subscriberIds: readonly number[]): Promise<ISubscriberPeriod[]> {
  if (subscriberIds.length === 0) return Promise.resolve([]);
  return em.find(SubscriberPeriod, { subscriber: { $in: [...subscriberIds] } }, { orderBy: { startsAt: 'asc', id: 'asc' } });
}

/** The current catalogue price of each of `productIds` the shop has. */
export async function cataloguePrices(em: EntityManager, productIds: readonly number[]): Promise<Map<number, string>> {
  if (productIds.length === 0) return new Map();
  const products = await em.find(Product, { id: { $in: [...new Set(productIds)] } }, { fields: ['id', 'price'] });
  return new Map(products.map((product) => [product.id, product.price]));
}

export interface SubscriberChanges {
  renewalItems?: RenewalItem[];
  renewalIntervalDays?: number | null;
  renewalPaused?: boolean;
  customIdentifier?: string | null;
}

/**
 * Writes the changes of a subscriber PATCH and answers the row as this write left it (null for an
 * unknown or foreign id). The row is locked and read fresh first: the ORM writes only the columns
 * that differ from its copy, so a stale copy would let a concurrent PATCH's value stand while this
 * one answers its own (never saved). Two PATCHes thus run one after the other.
 */
export async function updateSubscriber(em: EntityManager, subscriberId: number, changes: SubscriberChanges): Promise<ISubscriber | null> {
  return em.transactional(async (tx) => {
    const subscriber = await tx.findOne(Subscriber, { id: subscriberId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!subscriber) return null;
    tx.assign(subscriber, changes);
    await tx.flush();
    return subscriber;
  });
}

/** A move; `reactivatedFrom`: the status of a subscription that was over and runs again (its renewal workflow must be started). */
export type PeriodMove =
  | { kind: 'moved'; period: ISubscriberPeriod; reactivatedFrom: SubscriberStatus | null }
  | { kind: 'missing' }
  | { kind: 'refused'; problem: string };

/**
 * Moves the end of the subscriber's latest period to `activeUntil` (PATCH rule 4), keeping the
 * end it had before in `movedFrom`, whatever the status (spec: States and transitions). A
 * subscription that was over (`expired`, `ended`) and now ends in the future is `active` again.
 * The subscriber row is locked first, so a move and a renewal that adds the next period (the
 * workflow's activity locks the same row) happen one after the other.
 */
export async function moveLatestPeriod(em: EntityManager, subscriberId: number, activeUntil: Date, now: Date): Promise<PeriodMove> {
  return em.transactional(async (tx): Promise<PeriodMove> => {
    const subscriber = await tx.findOne(Subscriber, { id: subscriberId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!subscriber) return { kind: 'missing' };
    const period = await tx.findOne(SubscriberPeriod, { subscriber: subscriberId }, { orderBy: { endsAt: 'desc', id: 'desc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!period) return { kind: 'refused', problem: 'the subscriber has no period yet' };
    const problem = periodEndProblem(activeUntil, period.startsAt, now);
    if (problem) return { kind: 'refused', problem };
    // The same end again (a repeated request) changes nothing, so `movedFrom` keeps the end before the move.
    if (period.endsAt.getTime() !== activeUntil.getTime()) tx.assign(period, { movedFrom: period.endsAt, movedAt: now, endsAt: activeUntil });
    const reactivatedFrom = subscriber.status !== 'active' && activeUntil.getTime() > now.getTime() ? subscriber.status : null;
    if (reactivatedFrom) subscriber.status = 'active';
    await tx.flush();
    return { kind: 'moved', period, reactivatedFrom };
  });
}

/** The subscriber's period with this id, or null. */
export function subscriberPeriod(em: EntityManager, subscriberId: number, periodId: number): Promise<ISubscriberPeriod | null> {
  return em.findOne(SubscriberPeriod, { id: periodId, subscriber: subscriberId });
}
