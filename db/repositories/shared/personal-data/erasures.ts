import type { EntityManager } from '@mikro-orm/postgresql';
import type { ErasureCounts, PersonalDataTenant } from '../../../../domain/shared/personal-data.ts';

export interface ErasureRow {
  id: string;
  tenant_kind: PersonalDataTenant;
  tenant_id: string;
  email_hash: string;
  workflow_id: string;
  email_sealed: string | null;
  person_sealed: string | null;
  generation: number;
  completed_generation: number;
  status: 'running' | 'completed';
  counts: ErasureCounts;
  subjects: Record<string, unknown>;
  requested_at: Date;
  completed_at: Date | null;
}

/**
 * Records a request in one statement: the first makes the row, a repeat (also one racing it)
 * finds it, seals the address anew and raises `generation`, so a run under way goes round once
 * more and a finished erasure runs again (a person may have come back since).
 */
export async function requestErasure(
  em: EntityManager,
  r: { tenant: PersonalDataTenant; tenantId: string; emailHash: string; workflowId: string; emailSealed: string },
): Promise<{ id: string; generation: number }> {
  const [row]: { id: string; generation: number }[] = await em.execute(
    `insert into personal_data_erasures (id, tenant_kind, tenant_id, email_hash, workflow_id, email_sealed, generation, completed_generation, status, counts, subjects, requested_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, 1, 0, 'running', '{}', '{}', now())
     on conflict (tenant_kind, tenant_id, email_hash) do update
       set email_sealed = excluded.email_sealed, generation = personal_data_erasures.generation + 1, status = 'running', requested_at = now()
     returning id, generation`,
    [r.tenant, r.tenantId, r.emailHash, r.workflowId, r.emailSealed],
  );
  return row!;
}

export async function findErasure(em: EntityManager, id: string): Promise<ErasureRow | undefined> {
  const [row]: ErasureRow[] = await em.execute('select * from personal_data_erasures where id = ?', [id]);
  return row;
}

/** The tenant's erasure of the person with this hash (the operator's read of a result). */
export async function findErasureByHash(em: EntityManager, tenant: PersonalDataTenant, tenantId: string, emailHash: string): Promise<ErasureRow | undefined> {
  const [row]: ErasureRow[] = await em.execute('select * from personal_data_erasures where tenant_kind = ? and tenant_id = ? and email_hash = ?', [tenant, tenantId, emailHash]);
  return row;
}

/** What a run collected about the person (sealed) and the ids an integrator knows them by. */
export async function storeErasurePerson(em: EntityManager, id: string, personSealed: string, subjects: Record<string, unknown>): Promise<void> {
  await em.execute('update personal_data_erasures set person_sealed = ?, subjects = ?::jsonb where id = ?', [personSealed, JSON.stringify(subjects), id]);
}

/** Adds what one step changed to the erasure's counts (in the step's transaction). */
export async function addErasureCount(em: EntityManager, id: string, kind: string, changed: number): Promise<void> {
  await em.execute(`update personal_data_erasures set counts = counts || jsonb_build_object(?::text, coalesce((counts->>?)::int, 0) + ?) where id = ?`, [kind, kind, changed, id]);
}

/**
 * Ends a run that began at `generation`: completed, the sealed address and person dropped, unless
 * a request came meanwhile (then the run goes round again). Answers the counts when completed.
 */
export async function completeErasure(em: EntityManager, id: string, generation: number): Promise<ErasureCounts | null> {
  const [row]: { counts: ErasureCounts }[] = await em.execute(
    `update personal_data_erasures set status = 'completed', email_sealed = null, person_sealed = null, completed_generation = generation, completed_at = now()
      where id = ? and generation = ? returning counts`,
    [id, generation],
  );
  return row?.counts ?? null;
}

/** Whether an erasure of this person (by hash) was requested in the tenant at or after `since`: work started before it must stop. */
export async function erasedSince(em: EntityManager, tenant: PersonalDataTenant, tenantId: string, emailHash: string, since: Date): Promise<boolean> {
  const rows: unknown[] = await em.execute('select 1 from personal_data_erasures where tenant_kind = ? and tenant_id = ? and email_hash = ? and requested_at >= ?', [tenant, tenantId, emailHash, since]);
  return rows.length > 0;
}
