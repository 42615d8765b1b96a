/**
 * Subscription plans and their product links (spec: Subscription plan). The request's entity
 * manager is scoped to the shop by the shop filter; raw SQL names the shop itself. Every write runs
 * in one transaction that locks what its checks read (the plan, the superseded plan, the products),
 * and the partial unique index on automatic links decides a race for one product.
 */
import { DeadlockException, ForeignKeyConstraintViolationException, LockMode, UniqueConstraintViolationException, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SubscriptionPlan, SubscriptionPlanProduct, type ISubscriptionPlan, type ISubscriptionPlanProduct } from '../../entities/shop/index.ts';
import { likeContains, unknownIds } from '../../../domain/shop/product-rules.ts';
import { visibleProductIds } from './item-products.ts';
import { supersededPlanProblem, type FieldProblem, type PlanLink } from '../../../domain/shop/subscription-rules.ts';
import type { ListWindow } from './reference.ts';

export interface PlanFilter {
  automaticRenewal?: boolean;
  search?: string;
}

export function listPlans(em: EntityManager, filter: PlanFilter, window: ListWindow) {
  return em.findAndCount(
    SubscriptionPlan,
    {
      ...(filter.automaticRenewal === undefined ? {} : { automaticRenewal: filter.automaticRenewal }),
      ...(filter.search ? { name: { $ilike: likeContains(filter.search) } } : {}),
    },
    { orderBy: { id: 'asc' }, ...window },
  );
}

/** A plan of the shop, read from the database (not the identity map's copy); null for an unknown or foreign id. */
export function findPlan(em: EntityManager, id: number) {
  return em.findOne(SubscriptionPlan, { id }, { refresh: true });
}

/** The product links of `planIds` with their products (for `product_name`), in link order. */
export function linksOf(em: EntityManager, planIds: readonly number[]): Promise<ISubscriptionPlanProduct[]> {
  if (planIds.length === 0) return Promise.resolve([]);
  return em.find(SubscriptionPlanProduct, { plan: { $in: [...planIds] } }, { populate: ['product'], orderBy: { id: 'asc' }, refresh: true });
}

/** The plan columns a write may set (`supersededPlan` as an id). */
export type PlanValues = Partial<
  Pick<
    ISubscriptionPlan,
    | 'name'
    | 'automaticRenewal'
    | 'extensionStrategy'
    | 'freeDeliveryMinimumAmount'
    | 'sendEmailAboutActivation'
    | 'sendEmailAboutRenewal'
    | 'sendEmailAboutExpirationInOneDay'
    | 'sendEmailAboutExpirationInOneWeek'
  >
> & { supersededPlan?: number | null };

export interface PlanWrite {
  values: PlanValues;
  /** Sent: replaces every link. Absent: the links stay. */
  links?: PlanLink[];
}

export type PlanWriteResult = { kind: 'saved'; planId: number } | { kind: 'missing' } | { kind: 'refused'; problems: FieldProblem[] };

/** Problem of a product that another automatic-renewal plan holds (also what a lost race answers). */
const inAnotherAutomaticPlan = (productId: number, planId: number) => `product ${productId} already belongs to the automatic-renewal plan ${planId}`;

/** What a lost race answers: the product the index names, else every product the write sent. */
const lostRace = (productIds: readonly number[]) =>
  productIds.length === 1
    ? `product ${productIds[0]} already belongs to another automatic-renewal plan`
    : `one of the products ${productIds.join(', ')} already belongs to another automatic-renewal plan`;

/** The unique index that keeps a product in at most one automatic-renewal plan. */
const ONE_AUTOMATIC_PLAN = 'shop_subscription_plan_products_one_automatic_plan';

/** Products of `ids` linked to another plan with automatic renewal, with that plan. */
async function automaticLinksElsewhere(tx: EntityManager, shopId: string, ids: readonly number[], planId: number | null) {
  if (ids.length === 0) return [];
  return tx.execute<{ product_id: number; plan_id: number }[]>(
    'select product_id, plan_id from shop_subscription_plan_products where shop_id = ? and automatic_renewal and product_id in (?) and plan_id <> ? order by product_id',
    [shopId, [...ids], planId ?? 0],
  );
}

/** The products the plan links after the write: the sent links, else its current ones. */
async function productIdsAfter(tx: EntityManager, planId: number | null, write: PlanWrite): Promise<number[]> {
  if (write.links) return write.links.map((link) => link.product_id);
  return (await linksOf(tx, planId === null ? [] : [planId])).map((link) => link.product.id);
}

/** Every problem of a plan write against the shop's rows (references, one automatic plan per product). */
async function planWriteProblems(tx: EntityManager, shopId: string, plan: ISubscriptionPlan | null, write: PlanWrite): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const planId = plan?.id ?? null;
  const superseded = write.values.supersededPlan;
  if (superseded !== undefined && superseded !== null) {
    const self = supersededPlanProblem(planId, superseded);
    const found = await tx.execute('select id from shop_subscription_plans where shop_id = ? and id = ? for key share', [shopId, superseded]);
    if (self) problems.push({ field: 'superseded_subscription_plan_id', message: self });
    else if (found.length === 0) problems.push({ field: 'superseded_subscription_plan_id', message: `unknown plan id: ${superseded}` });
  }
  if (write.links) {
    const sent = write.links.map((link) => link.product_id);
    const missing = unknownIds(sent, await visibleProductIds(tx, shopId, sent, { lock: true }));
    if (missing.length > 0) problems.push({ field: 'products', message: `unknown product ids: ${missing.join(', ')}` });
  }
  if (write.values.automaticRenewal ?? plan?.automaticRenewal ?? false) {
    const productIds = await productIdsAfter(tx, planId, write);
    const field = write.links ? 'products' : 'automatic_renewal';
    for (const taken of await automaticLinksElsewhere(tx, shopId, productIds, planId)) problems.push({ field, message: inAnotherAutomaticPlan(taken.product_id, taken.plan_id) });
  }
  return problems;
}

/**
 * Creates (`planId` null) or updates a plan with its links in one transaction. The links mirror
 * the plan's `automatic_renewal`, so the partial unique index refuses a second automatic plan for a
 * product even when two writes race (the loser is answered like the check).
 */
export async function savePlan(em: EntityManager, shopId: string, planId: number | null, write: PlanWrite, attempt = 1): Promise<PlanWriteResult> {
  try {
    return await em.transactional(async (tx): Promise<PlanWriteResult> => {
      const plan = planId === null ? null : await tx.findOne(SubscriptionPlan, { id: planId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (planId !== null && !plan) return { kind: 'missing' };
      const problems = await planWriteProblems(tx, shopId, plan, write);
      if (problems.length > 0) return { kind: 'refused', problems };
      const saved = plan ?? tx.create(SubscriptionPlan, { shop: shopId, name: write.values.name } as RequiredEntityData<ISubscriptionPlan>);
      tx.assign(saved, write.values);
      // The links are part of the plan: replacing them updates it even when no column changed.
      if (write.links) saved.updatedAt = new Date();
      await tx.flush();
      if (write.links) {
        await tx.nativeDelete(SubscriptionPlanProduct, { plan: saved.id });
        // Inserted in product order, so two writes racing for several products never deadlock.
        for (const link of [...write.links].sort((a, b) => a.product_id - b.product_id)) {
          tx.create(SubscriptionPlanProduct, {
            shop: shopId,
            plan: saved.id,
            product: link.product_id,
            interval: link.interval,
            renewalsLimit: link.renewals_limit,
            automaticRenewal: saved.automaticRenewal,
          });
        }
      } else {
        await tx.execute('update shop_subscription_plan_products set automatic_renewal = ? where shop_id = ? and plan_id = ?', [saved.automaticRenewal, shopId, saved.id]);
      }
      await tx.flush();
      return { kind: 'saved', planId: saved.id };
    });
  } catch (error) {
    // A flag flip of one plan's links against another plan's inserts may still deadlock: run again.
    if (error instanceof DeadlockException && attempt < 3) return savePlan(em, shopId, planId, write, attempt + 1);
    if (error instanceof UniqueConstraintViolationException && violated(error) === ONE_AUTOMATIC_PLAN) {
      const named = productOf(error);
      const productIds = named === undefined ? await productIdsAfter(em, planId, write) : [named];
      return { kind: 'refused', problems: [{ field: write.links ? 'products' : 'automatic_renewal', message: lostRace(productIds) }] };
    }
    throw error;
  }
}

/** The constraint a violation names (PostgreSQL's `constraint` field, else the message). */
function violated(error: Error): string | undefined {
  const named = (error as { constraint?: unknown }).constraint;
  if (typeof named === 'string') return named;
  return error.message.includes(ONE_AUTOMATIC_PLAN) ? ONE_AUTOMATIC_PLAN : undefined;
}

/** The product id named in the unique index's violation detail (`Key (product_id)=(12)`), else undefined. */
function productOf(error: Error): number | undefined {
  const match = /\(product_id\)=\((\d+)\)/.exec(`${error.message} ${String((error as { detail?: unknown }).detail ?? '')}`);
  return match ? Number(match[1]) : undefined;
}

export type PlanDeletion = 'deleted' | 'missing' | 'has_subscribers' | 'has_mail_sequences';

/**
 * Removes a plan unless it has subscribers or a mail sequence is triggered by it (the sequence's
 * `subscription_plan_id` has no foreign key: removing the plan would leave it pointing at nothing).
 * The plan row is locked first, so a subscriber inserted meanwhile (its foreign key locks the plan
 * row) either commits before the count or waits and then fails on the removed plan; the
 * restricting foreign key is the last word.
 */
export async function deletePlan(em: EntityManager, shopId: string, planId: number): Promise<PlanDeletion> {
  try {
    return await em.transactional(async (tx): Promise<PlanDeletion> => {
      const locked = await tx.execute('select id from shop_subscription_plans where shop_id = ? and id = ? for update', [shopId, planId]);
      if (locked.length === 0) return 'missing';
      const [row] = await tx.execute<{ n: number }[]>('select count(*)::int as n from shop_subscribers where shop_id = ? and plan_id = ?', [shopId, planId]);
      if (row!.n > 0) return 'has_subscribers';
      const sequences = await tx.execute('select 1 from shop_mail_sequences where shop_id = ? and subscription_plan_id = ? limit 1', [shopId, planId]);
      if (sequences.length > 0) return 'has_mail_sequences';
      await tx.execute('delete from shop_subscription_plans where shop_id = ? and id = ?', [shopId, planId]);
      return 'deleted';
    });
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) return 'has_subscribers';
    throw error;
  }
}
