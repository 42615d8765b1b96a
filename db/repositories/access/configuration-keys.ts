import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigurationKey, type IConfigurationKey } from '../../entities/index.ts';
import { insertRow } from '../shared/insert-row.ts';

/** The configuration key with this hash, of any platform (looked up before the request has a tenant), or null. */
export function findConfigurationKeyByHash(em: EntityManager, keyHash: string): Promise<IConfigurationKey | null> {
  return em.findOne(ConfigurationKey, { keyHash }, { filters: false });
}

/** A new configuration key of the platform the entity manager is scoped to. */
export function createConfigurationKey(em: EntityManager, values: RequiredEntityData<IConfigurationKey>): Promise<IConfigurationKey> {
  return insertRow(em, ConfigurationKey, values);
}

/** Revokes the key now, unless it is revoked already (then its first revocation stands); answers when. */
export async function revokeConfigurationKey(em: EntityManager, key: IConfigurationKey): Promise<Date> {
  const revokedAt = (key.revokedAt ??= new Date());
  await em.flush();
  return revokedAt;
}

/** One key of the platform the manager is scoped to, or null (another platform's key too). */
export function findConfigurationKey(em: EntityManager, id: string): Promise<IConfigurationKey | null> {
  return em.findOne(ConfigurationKey, { id });
}
