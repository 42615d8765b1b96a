import type { EntityManager } from '@mikro-orm/postgresql';

export type CatalogueKind = 'courses' | 'audiobooks';

/**
 * A platform's active courses or audiobooks, by title. The hottest read of the access interface:
 * one plain statement without entity hydration, which doubles its throughput (`npm run bench`).
 */
export function activeCatalogueItems(em: EntityManager, platformId: string, kind: CatalogueKind): Promise<{ id: string; title: string }[]> {
  const table = kind === 'courses' ? 'courses' : 'audiobooks';
  return em.execute(`select id, title from ${table} where platform_id = ? and active order by title, id`, [platformId]);
}
