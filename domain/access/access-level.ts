import { z } from 'zod';

/** Access level rules of the access interface (spec: access-service.md, "Access level rules"). */

export const ACCESS_LEVELS = [0, 1] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Rule 7: a level is the JSON number 0 or 1; anything else rejects the batch. */
export const accessLevelSchema = z.union([z.literal(0), z.literal(1)]);

/** Rule 2: an omitted level means the regular level 0. */
export const DEFAULT_ACCESS_LEVEL: AccessLevel = 0;

export function isAccessLevel(value: unknown): value is AccessLevel {
  return typeof value === 'number' && (ACCESS_LEVELS as readonly number[]).includes(value);
}

/** Rule 3: a level only rises; granting a lower level to a higher holder removes nothing. */
export function mergeAccessLevel(current: AccessLevel | null, granted: AccessLevel): AccessLevel {
  return current === null ? granted : (Math.max(current, granted) as AccessLevel);
}

/** Rule 1: a section demanding a raised level is hidden from participants below it. */
export function canSeeSection(participantLevel: AccessLevel, sectionLevel: number): boolean {
  return sectionLevel <= participantLevel;
}

export interface SectionLessons {
  accessLevel: number;
  lessonIds: readonly string[];
}

/** Rule 4: raising the level adds the missing lessons; nothing already visible disappears. */
export function visibleLessonIds(participantLevel: AccessLevel, sections: readonly SectionLessons[]): string[] {
  return sections.filter((s) => canSeeSection(participantLevel, s.accessLevel)).flatMap((s) => s.lessonIds);
}
