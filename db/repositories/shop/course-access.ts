/**
 * The link between a shop and a course platform (issue 14): which platform a shop sells courses
 * of, which of its courses exist, and which lines of an order sell them. Raw SQL over the two
 * services' tables: the shop filter and the tenant filter each cover only one side.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CourseLine, ProductCourseAccess } from '../../../domain/shop/course-access.ts';

/** The platform the shop is linked to; null when none (also for an unknown shop). */
export async function linkedPlatformId(em: EntityManager, shopId: string): Promise<string | null> {
  const [row] = await em.execute<{ course_platform_id: string | null }[]>('select course_platform_id from shops where id = ?', [shopId]);
  return row?.course_platform_id ?? null;
}

/** Links the shop to the platform; false when the platform does not exist. */
export async function linkPlatform(em: EntityManager, shopId: string, platformId: string): Promise<boolean> {
  const rows = await em.execute<unknown[]>(
    'update shops set course_platform_id = p.id, updated_at = now() from platforms p where shops.id = ? and p.id = ? returning shops.id',
    [shopId, platformId],
  );
  return rows.length > 0;
}

/** The ids among `ids` that are courses of the platform. */
export async function platformCourseIds(em: EntityManager, platformId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await em.execute<{ id: string }[]>('select id from courses where platform_id = ? and id in (?)', [platformId, [...new Set(ids)]]);
  return new Set(rows.map((row) => row.id));
}

/** The order's lines whose product sells courses (hidden products included: the order still points at them). */
export async function courseLinesOf(em: EntityManager, shopId: string, orderId: number): Promise<CourseLine[]> {
  const rows = await em.execute<{ product_id: number; name: string; course_access: ProductCourseAccess[] }[]>(
    `select i.product_id, i.name, p.course_access
       from shop_order_items i join shop_products p on p.id = i.product_id and p.shop_id = i.shop_id
      where i.shop_id = ? and i.order_id = ? and jsonb_array_length(p.course_access) > 0
      order by i.id`,
    [shopId, orderId],
  );
  return rows.map((row) => ({ productId: row.product_id, productName: row.name, courseAccess: row.course_access }));
}
