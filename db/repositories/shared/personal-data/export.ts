import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail } from '../../../../domain/shared/email.ts';
import { erasedEmail, type PersonalDataTenant } from '../../../../domain/shared/personal-data.ts';
import { PERSONAL_DATA } from './registry.ts';

/**
 * Everything the tenant holds about the address (issue 29, GDPR article 15): one list per kind of
 * the registry, in one repeatable-read snapshot so the lists agree with each other. An unknown
 * person gets the same document with every list empty.
 */
export async function exportPersonalData(em: EntityManager, tenant: PersonalDataTenant, tenantId: string, email: string): Promise<Record<string, unknown>> {
  const address = normalizeEmail(email);
  return em.fork().transactional(
    async (tx) => {
      const document: Record<string, unknown> = { email: address };
      // The marker is never this address: an erased person's kept rows are not theirs to read back by e-mail.
      const ctx = { em: tx, tenantId, email: address, marker: erasedEmail('0'.repeat(64)), personal: [] };
      for (const entry of PERSONAL_DATA[tenant]) if (entry.export) document[entry.kind] = await entry.export(ctx);
      return document;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
