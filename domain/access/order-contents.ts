import { z } from 'zod';
import { DEFAULT_ACCESS_LEVEL, accessLevelSchema, mergeAccessLevel, type AccessLevel } from './access-level.ts';
import { emailSchema } from '../shared/email.ts';
import { itemIdSchema } from './grant-entries.ts';
import { FileKey } from './order-files.ts';

/** Order rules (spec: access-service.md, Order and Order item). */

export const OrderItem = z.object({
  product_id: z.union([z.string(), z.number()]).transform(String).optional(),
  product_name: z.string().max(500).optional(),
  course_ids: z.array(itemIdSchema).max(200).optional(),
  courses: z
    .array(z.object({ id: itemIdSchema, access_level: accessLevelSchema.nullish().transform((l) => l ?? DEFAULT_ACCESS_LEVEL) }))
    .max(200)
    .optional(),
  file_keys: z.array(FileKey).max(200).optional(),
});
export type OrderItem = z.output<typeof OrderItem>;

export const OrderInput = z.object({
  email: emailSchema,
  external_id: z.union([z.string().trim().min(1).max(255), z.number().int().transform(String)]),
  ordinal_number: z.union([z.string().max(255), z.number().transform(String)]).nullish(),
  gift_code: z.string().max(255).nullish(),
  ordered_contents: z.array(OrderItem).min(1).max(500),
});
export type OrderInput = z.output<typeof OrderInput>;

export interface OrderedCourse {
  courseId: string;
  accessLevel: AccessLevel;
}

/**
 * Rules 1-4: the granted set is the union of `course_ids` (level 0) and `courses`; a course in
 * both takes the level from `courses`; a `courses` entry without a level means 0. Across lines,
 * the highest level asked for a course wins (a level only rises).
 */
export function orderedCourses(items: readonly OrderItem[]): OrderedCourse[] {
  const levels = new Map<string, AccessLevel>();
  for (const item of items) {
    const fromCourses = new Map((item.courses ?? []).map((c) => [c.id, c.access_level as AccessLevel]));
    for (const id of item.course_ids ?? []) if (!fromCourses.has(id)) raise(levels, id, DEFAULT_ACCESS_LEVEL);
    for (const [id, accessLevel] of fromCourses) raise(levels, id, accessLevel);
  }
  return [...levels].map(([courseId, accessLevel]) => ({ courseId, accessLevel }));
}

function raise(levels: Map<string, AccessLevel>, id: string, accessLevel: AccessLevel) {
  levels.set(id, mergeAccessLevel(levels.get(id) ?? null, accessLevel));
}
