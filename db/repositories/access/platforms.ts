import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform, type IPlatform } from '../../entities/index.ts';
import { announceApiKeyChange } from './api-keys.ts';
import { insertRow } from '../shared/insert-row.ts';

/** The platform by id, or null when unknown. */
export function findPlatform(em: EntityManager, platformId: string): Promise<IPlatform | null> {
  return em.findOne(Platform, platformId);
}

/** The platform of a request already scoped to it (a route reached through its key): it exists, so a miss is an error. */
export function platformOf(em: EntityManager, platformId: string): Promise<IPlatform> {
  return em.findOneOrFail(Platform, platformId);
}

/** Whether the platform is a sandbox twin (looked up before the request has a tenant). */
export async function isSandboxPlatform(em: EntityManager, platformId: string): Promise<boolean> {
  const platform = await em.findOne(Platform, platformId, { filters: false, fields: ['sandboxOf'] });
  return platform?.sandboxOf != null;
}

/** The sandbox twin of a platform, or null when it has none. */
export function findSandboxTwin(em: EntityManager, sourceId: string): Promise<IPlatform | null> {
  return em.findOne(Platform, { sandboxOf: sourceId });
}

/** A new platform (or sandbox twin), written at once: a taken subdomain throws the unique violation. */
export function createPlatform(em: EntityManager, values: RequiredEntityData<IPlatform>): Promise<IPlatform> {
  return insertRow(em, Platform, values);
}

/** Replaces the platform's allowed domains, announced with the change (the access interface keeps them with its keys). */
export async function replaceAllowedDomains(em: EntityManager, platformId: string, domains: string[]): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(Platform, { id: platformId }, { allowedDomains: domains });
    await announceApiKeyChange(tx, platformId);
  });
}
