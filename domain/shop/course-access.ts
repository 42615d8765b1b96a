import type { AccessLevel } from '../access/access-level.ts';
import type { OrderItem } from '../access/order-contents.ts';
import type { OrderStatusKind } from './order-statuses.ts';

/**
 * Courses sold in the shop (issue 14): a product's `course_access` names courses of the platform
 * the shop is linked to; clearing an order registers one access order on that platform, and a
 * canceled or returned order cancels it.
 */
export interface ProductCourseAccess {
  course_id: string;
  access_level: AccessLevel;
}

/** The access order's `external_id`: one per shop order, so a repeated registration is the same order. */
export function accessOrderExternalId(shopId: string, ordinalNumber: number): string {
  return `shop-${shopId}-${ordinalNumber}`;
}

export interface CourseLine {
  productId: number;
  productName: string;
  courseAccess: readonly ProductCourseAccess[];
}

/**
 * The access order's `ordered_contents`: one item per shop line that sells courses, with the
 * courses of the platform (`known`); a course no longer on the platform is left out. The access
 * rules then take the union and the highest level per course.
 */
export function accessOrderContents(lines: readonly CourseLine[], known: ReadonlySet<string>): OrderItem[] {
  return lines
    .map((line) => ({
      product_id: String(line.productId),
      product_name: line.productName,
      courses: line.courseAccess.filter((c) => known.has(c.course_id)).map((c) => ({ id: c.course_id, access_level: c.access_level })),
    }))
    .filter((item) => item.courses.length > 0);
}

/** Whether an order reaching a status of this kind withdraws the access its clearing granted. */
export function withdrawsCourseAccess(kind: OrderStatusKind): boolean {
  return kind === 'CanceledDefaultOrderStatus' || kind === 'ReturnedDefaultOrderStatus';
}
