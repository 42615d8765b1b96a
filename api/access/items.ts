import type { EntityManager } from '@mikro-orm/postgresql';

export type ItemKind = 'course' | 'audiobook';

const TABLES: Record<ItemKind, string> = { course: 'courses', audiobook: 'audiobooks' };

/** The ids among `ids` (valid uuids) that are items of the platform, in one statement (a grant's path). */
export async function knownItemIds(em: EntityManager, platformId: string, kind: ItemKind, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: { id: string }[] = await em.execute(`select id from ${TABLES[kind]} where platform_id = ? and id = any(?::uuid[])`, [platformId, `{${ids.join(',')}}`]);
  return new Set(rows.map((row) => row.id));
}
