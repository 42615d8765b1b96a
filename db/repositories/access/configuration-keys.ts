import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigurationKey, type IConfigurationKey } from '../../entities/index.ts';

/** The configuration key with this hash, of any platform (looked up before the request has a tenant), or null. */
export function findConfigurationKeyByHash(em: EntityManager, keyHash: string): Promise<IConfigurationKey | null> {
  return em.findOne(ConfigurationKey, { keyHash }, { filters: false });
}
