/**
 * Discount code pools of one shop: a pool's codes are discount-code rows with `pool_id`, drawn a
 * few at a time (the request's entity manager is scoped to the shop; raw SQL names the shop itself).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DiscountCode, DiscountCodePool, type IDiscountCode, type IDiscountCodePool } from '../../entities/shop/index.ts';
import { likeContains } from '../../../domain/shop/product-rules.ts';
import type { ListWindow } from './reference.ts';

export interface PoolCounters {
  codesTotal: number;
  codesDrawn: number;
}

export interface PoolWithCounters {
  pool: IDiscountCodePool;
  counters: PoolCounters;
}

/** Creates a pool and its codes (each a discount-code row with the pool's settings) in one transaction. */
export async function createPool(
  em: EntityManager,
  shopId: string,
  pool: { name: string; activateOnDraw: boolean },
  codes: readonly string[],
  settings: Partial<IDiscountCode>,
): Promise<IDiscountCodePool> {
  return em.transactional(async (tx) => {
    const row = tx.create(DiscountCodePool, { shop: shopId, ...pool });
    await tx.flush();
    const now = new Date();
    await tx.insertMany(
      DiscountCode,
      codes.map((code) => ({
        ...settings,
        shop: shopId,
        pool: row.id,
        code,
        // A draw-mode pool's codes wait inactive for their draw.
        active: pool.activateOnDraw ? false : (settings.active ?? true),
        createdAt: now,
        updatedAt: now,
      })) as never,
    );
    return row;
  });
}

async function countersOf(em: EntityManager, shopId: string, poolIds: readonly number[]): Promise<Map<number, PoolCounters>> {
  if (poolIds.length === 0) return new Map();
  const rows = await em.execute<{ pool_id: number; total: string; drawn: string }[]>(
    'select pool_id, count(*) as total, count(drawn_at) as drawn from shop_discount_codes where shop_id = ? and pool_id in (?) group by pool_id',
    [shopId, [...poolIds]],
  );
  return new Map(rows.map((row) => [row.pool_id, { codesTotal: Number(row.total), codesDrawn: Number(row.drawn) }]));
}

const withCounters = async (em: EntityManager, shopId: string, pools: IDiscountCodePool[]): Promise<PoolWithCounters[]> => {
  const counters = await countersOf(em, shopId, pools.map((p) => p.id));
  return pools.map((pool) => ({ pool, counters: counters.get(pool.id) ?? { codesTotal: 0, codesDrawn: 0 } }));
};

export async function listPools(em: EntityManager, shopId: string, search: string | undefined, window: ListWindow): Promise<[PoolWithCounters[], number]> {
  const pattern = search ? likeContains(search) : undefined;
  const [pools, total] = await em.findAndCount(DiscountCodePool, pattern ? { name: { $ilike: pattern } } : {}, { orderBy: { id: 'asc' }, ...window });
  return [await withCounters(em, shopId, pools), total];
}

export async function findPool(em: EntityManager, shopId: string, id: number): Promise<PoolWithCounters | null> {
  const pool = await em.findOne(DiscountCodePool, id);
  return pool ? (await withCounters(em, shopId, [pool]))[0]! : null;
}

export interface DrawnCode {
  id: number;
  code: string;
  validFrom: Date;
  validUntil: Date;
}

/** Thrown inside the draw's transaction when fewer free codes remain than asked: nothing is issued. */
export class NotEnoughCodes extends Error {
  constructor(readonly got: number) {
    super('not enough free codes');
  }
}

/**
 * Draws `count` free codes of the pool: one statement picks them with `FOR UPDATE SKIP LOCKED`
 * (a concurrent draw skips the rows this one holds) and activates them with the window
 * [from, from + hours). Fewer than `count` rolls the whole draw back (NotEnoughCodes).
 */
export async function drawCodes(em: EntityManager, shopId: string, poolId: number, count: number, from: Date, hours: number): Promise<DrawnCode[]> {
  const until = new Date(from.getTime() + hours * 3_600_000);
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ id: number; code: string }[]>(
      `update shop_discount_codes set active = true, drawn_at = ?, start_date = ?, end_date = ?, updated_at = ?
       where id in (
         select id from shop_discount_codes where shop_id = ? and pool_id = ? and drawn_at is null
         order by id limit ? for update skip locked)
       returning id, code`,
      [from, from, until, from, shopId, poolId, count],
    );
    if (rows.length < count) throw new NotEnoughCodes(rows.length);
    return rows.sort((a, b) => a.id - b.id).map((row) => ({ id: row.id, code: row.code, validFrom: from, validUntil: until }));
  });
}
