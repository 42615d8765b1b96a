import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { PlatformAppearance, type IPlatformAppearance } from '../../entities/index.ts';

/**
 * The platform's appearance row, made by the first write and locked for this transaction: the
 * insert is `on conflict do nothing`, so concurrent first writes make one row instead of a
 * duplicate-key error, and the row lock makes concurrent patches apply one after the other
 * (none loses the fields another set). Call inside a transaction on a platform-scoped manager.
 */
export async function lockedAppearance(em: EntityManager, platformId: string): Promise<IPlatformAppearance> {
  await em
    .createQueryBuilder(PlatformAppearance)
    .insert({ id: randomUUID(), platform: platformId, settings: {}, welcome: {}, updatedAt: new Date() })
    .onConflict(['platform'])
    .ignore()
    .execute();
  return em.findOneOrFail(PlatformAppearance, { platform: platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** The platform's appearance row, or null before its first write; the manager is scoped to the platform. */
export function findAppearance(em: EntityManager): Promise<IPlatformAppearance | null> {
  return em.findOne(PlatformAppearance, {});
}

/** Writes one document of the (locked) appearance row. */
export async function saveAppearanceDocument(em: EntityManager, appearance: IPlatformAppearance, column: 'settings' | 'welcome', document: Record<string, unknown>): Promise<void> {
  appearance[column] = document;
  await em.flush();
}
