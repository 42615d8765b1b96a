import type { EntityManager } from '@mikro-orm/postgresql';
import { linkedPlatformId, platformCourseIds } from '../../../db/repositories/shop/course-access.ts';
import type { FieldErrors } from '../../shared/validation-errors.ts';
import type { ProductPatch } from './schemas.ts';

/**
 * `course_access` names courses of the shop's linked platform (issue 14): 422 on the field when the
 * shop has no linked platform or a course is not one of that platform's (unknown or another
 * platform's). An empty list is always accepted: it clears the field.
 */
export async function courseAccessErrors(em: EntityManager, shopId: string, body: ProductPatch, errors: FieldErrors): Promise<void> {
  const sent = body.course_access;
  if (!sent?.length) return;
  const platformId = await linkedPlatformId(em, shopId);
  if (!platformId) {
    (errors.course_access ??= []).push('the shop is not linked to a course platform (PUT /admin/v1/shops/:shop_id/course_platform)');
    return;
  }
  const known = await platformCourseIds(em, platformId, sent.map((entry) => entry.course_id));
  const unknown = sent.filter((entry) => !known.has(entry.course_id)).map((entry) => entry.course_id);
  if (unknown.length > 0) (errors.course_access ??= []).push(`not courses of the linked platform: ${unknown.join(', ')}`);
}
