import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { sealSecret } from '../../adapters/secrets/secret-box.ts';
import { exportPersonalData } from '../../db/repositories/shared/personal-data/export.ts';
import { findErasureByHash, requestErasure, type ErasureRow } from '../../db/repositories/shared/personal-data/erasures.ts';
import { personalEmailHash } from '../../db/repositories/shared/personal-data/salt.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { erasureWorkflowId, type PersonalDataTenant } from '../../domain/shared/personal-data.ts';
import type { WorkflowStarter } from '../shared/workflow-starts/index.ts';
import { notFound } from '../shared/errors.ts';

/**
 * A person's data on request (issue 29), shared by the shop's and the platform's operator routes:
 * the export document, the erasure request and the read of its result.
 */

export const PersonEmailQuery = z.object({ email: z.string().trim().max(254).pipe(z.email()).describe('compared without letter case') });
export const EraseBody = z.object({ email: z.string().trim().max(254).pipe(z.email()).describe('compared without letter case; never stored in clear, logged or put in a workflow id') });
export const ErasureParams = z.object({ erasure_id: z.string().regex(/^[0-9a-f]{64}$/, 'must be the erasure_id an erase request answered').describe('the last segment of the workflow id: the keyed hash of the e-mail') });

export const PersonalDataExportReply = z
  .object({ email: z.string() })
  .catchall(z.array(z.unknown()))
  .describe('`email` and one list per kind of data held (every list empty for an unknown person)')
  .meta({ id: 'PersonalDataExport' });
export const ErasureStartedReply = z.object({ workflow_id: z.string(), erasure_id: z.string().describe('read the result at `.../erasures/:erasure_id`') }).meta({ id: 'ErasureStarted' });
export const ErasureReply = z
  .object({
    workflow_id: z.string(),
    erasure_id: z.string(),
    status: z.enum(['running', 'completed']),
    counts: z.record(z.string(), z.number()).describe('rows changed per kind of data, over every run of this erasure'),
    requested_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Erasure' });

/**
 * Records the request (the address sealed, under its keyed hash) and starts the erasure, or wakes
 * the one running for that person: answers the workflow id, which holds only the hash.
 */
export async function requestPersonalDataErasure(
  deps: { em: EntityManager; workflows: WorkflowStarter; secretsKey: Buffer },
  tenant: PersonalDataTenant,
  tenantId: string,
  email: string,
): Promise<{ workflow_id: string; erasure_id: string }> {
  const address = normalizeEmail(email);
  const emailHash = await personalEmailHash(deps.em, address);
  const workflowId = erasureWorkflowId({ tenant, tenantId, emailHash });
  // The erasure's start is recorded with the request (sent once committed, later when Temporal is down).
  const recorded = await deps.em.transactional(async (tx) => {
    const { id } = await requestErasure(tx, { tenant, tenantId, emailHash, workflowId, emailSealed: sealSecret(address, deps.secretsKey) });
    return deps.workflows.shared.erasePersonalData(tx, { tenant, tenantId, erasureId: id }, workflowId);
  });
  await deps.workflows.startRecorded(recorded);
  return { workflow_id: workflowId, erasure_id: emailHash };
}

export async function erasureReply(em: EntityManager, tenant: PersonalDataTenant, tenantId: string, erasureId: string): Promise<z.infer<typeof ErasureReply>> {
  const row: ErasureRow | undefined = await findErasureByHash(em, tenant, tenantId, erasureId);
  if (!row) throw notFound('erasure');
  return {
    workflow_id: row.workflow_id,
    erasure_id: row.email_hash,
    status: row.status,
    counts: row.counts,
    requested_at: new Date(row.requested_at).toISOString(),
    completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
  };
}

/** The export document in its reply type (`email` and one list per kind). */
export async function personalDataExport(em: EntityManager, tenant: PersonalDataTenant, tenantId: string, email: string): Promise<z.infer<typeof PersonalDataExportReply>> {
  return (await exportPersonalData(em, tenant, tenantId, email)) as z.infer<typeof PersonalDataExportReply>;
}
