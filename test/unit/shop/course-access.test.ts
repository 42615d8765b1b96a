import { describe, expect, it } from 'vitest';
import { orderedCourses } from '../../../domain/access/order-contents.ts';
import { accessOrderContents, accessOrderExternalId, withdrawsCourseAccess } from '../../../domain/shop/course-access.ts';
import { ORDER_STATUS_KINDS } from '../../../domain/shop/order-statuses.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const GONE = '00000000-0000-4000-8000-0000000000ff';

describe('the access order of a shop order', () => {
  it('has one external id per shop and ordinal number', () => {
    expect(accessOrderExternalId('s-1', 7)).toBe('shop-s-1-7');
    expect(accessOrderExternalId('s-1', 7)).not.toBe(accessOrderExternalId('s-2', 7));
  });

  it('orders one item per course line, leaves out courses not on the platform and lines left empty', () => {
    const contents = accessOrderContents(
      [
        { productId: 1, productName: 'Bundle', courseAccess: [{ course_id: A, access_level: 0 }, { course_id: GONE, access_level: 1 }] },
        { productId: 2, productName: 'Gone', courseAccess: [{ course_id: GONE, access_level: 0 }] },
        { productId: 3, productName: 'Premium', courseAccess: [{ course_id: A, access_level: 1 }, { course_id: B, access_level: 0 }] },
      ],
      new Set([A, B]),
    );
    expect(contents).toEqual([
      { product_id: '1', product_name: 'Bundle', courses: [{ id: A, access_level: 0 }] },
      { product_id: '3', product_name: 'Premium', courses: [{ id: A, access_level: 1 }, { id: B, access_level: 0 }] },
    ]);
    // The access rules then grant the highest level asked for a course.
    expect(orderedCourses(contents)).toEqual([
      { courseId: A, accessLevel: 1 },
      { courseId: B, accessLevel: 0 },
    ]);
  });
});

describe('withdrawsCourseAccess', () => {
  it('holds for the canceled and returned statuses only', () => {
    expect(ORDER_STATUS_KINDS.filter(withdrawsCourseAccess)).toEqual(['CanceledDefaultOrderStatus', 'ReturnedDefaultOrderStatus']);
  });
});
