import type { EntityManager } from '@mikro-orm/postgresql';
import type { IPlatform } from '../../db/entities/index.ts';
import { findPlatform } from '../../db/repositories/access/platforms.ts';
import { notFound } from '../shared/errors.ts';
import { scopeToPlatform } from '../shared/orm-context.ts';

/** Loads the platform an operator route names (404 when unknown) and scopes the request to it. */
export async function usePlatform(em: EntityManager, platformId: string): Promise<IPlatform> {
  const platform = await findPlatform(em, platformId);
  if (!platform) throw notFound('platform');
  scopeToPlatform(em, platform.id);
  return platform;
}
