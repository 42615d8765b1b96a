import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditLogEntry } from '../../entities/index.ts';

/** A configuration request in its platform's audit log (flushed by the caller). */
export function recordConfigurationRequest(
  em: EntityManager,
  platformId: string,
  entry: { at: Date; method: string; path: string; status: number; keyPrefix: string },
): void {
  em.create(AuditLogEntry, { platform: platformId, ...entry });
}
