import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditLogEntry, type IAuditLogEntry } from '../../entities/index.ts';

/** A configuration request in its platform's audit log, written at once. */
export async function recordConfigurationRequest(
  em: EntityManager,
  platformId: string,
  entry: { at: Date; method: string; path: string; status: number; keyPrefix: string },
): Promise<void> {
  em.create(AuditLogEntry, { platform: platformId, ...entry });
  await em.flush();
}

/** The platform's latest audit log entries, newest first (at most 1000). */
export function latestAuditLogEntries(em: EntityManager): Promise<IAuditLogEntry[]> {
  return em.find(AuditLogEntry, {}, { orderBy: { at: 'desc', id: 'desc' }, limit: 1000 });
}
