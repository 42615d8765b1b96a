import type { EntityManager } from '@mikro-orm/postgresql';
import { Audiobook, Course } from '../../db/entities/index.ts';

export type ItemKind = 'course' | 'audiobook';

/** The ids among `ids` that are items of the request's platform (the tenant filter applies). */
export async function knownItemIds(em: EntityManager, kind: ItemKind, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = kind === 'course'
    ? await em.find(Course, { id: { $in: ids } }, { fields: ['id'] })
    : await em.find(Audiobook, { id: { $in: ids } }, { fields: ['id'] });
  return new Set(found.map((item) => item.id));
}
