import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { openSecret, sealSecret, secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import type { PersonContext } from '../../db/repositories/shared/personal-data/context.ts';
import { addErasureCount, completeErasure, findErasure, storeErasurePerson, type ErasureRow } from '../../db/repositories/shared/personal-data/erasures.ts';
import { PERSONAL_DATA, personalDataEntry } from '../../db/repositories/shared/personal-data/registry.ts';
import { participantIdByEmail, shopOrdersByEmails, shopSubscriberIdsByEmails } from '../../db/repositories/shared/personal-data/subjects.ts';
import { openShopDelivery } from '../../db/repositories/shop/webhooks.ts';
import { participantErased, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import { erasedEmail, personalValues, type ErasureCounts, type PersonalDataTenant } from '../../domain/shared/personal-data.ts';
import { customerErasedEventKey } from '../../domain/shop/webhooks.ts';
import type { ActivityDeps } from './deps.ts';
import { recordEvents } from './events.ts';

/** What an erasure's workflow passes its steps: the tenant and the request row, never the e-mail. */
export interface ErasureRef {
  tenant: PersonalDataTenant;
  tenantId: string;
  erasureId: string;
}

interface SealedPerson {
  personal: string[];
}

/**
 * The steps of a person's erasure (workflows/shared/personal-data-erasure.ts). Each opens the
 * request row's sealed address itself, so neither the address nor anything collected about the
 * person passes through the workflow's history; each is idempotent (an entry finds nothing left
 * the second time, and its count is added in the transaction of its change).
 */
export function personalDataActivities({ orm, secretsKey, integrationEndpoints }: ActivityDeps) {
  const key = () => secretsKey ?? secretsKeyFrom(undefined, () => undefined);

  async function load(em: EntityManager, ref: ErasureRef): Promise<ErasureRow & { email: string }> {
    const row = await findErasure(em, ref.erasureId);
    if (!row || row.tenant_kind !== ref.tenant || row.tenant_id !== ref.tenantId) throw ApplicationFailure.nonRetryable(`erasure ${ref.erasureId} not found`, 'ErasureNotFound');
    // Completed meanwhile (a repeated step of a finished run): nothing is left to open.
    return { ...row, email: row.email_sealed ? openSecret(row.email_sealed, key()) : '' };
  }

  const context = (em: EntityManager, row: ErasureRow & { email: string }): PersonContext => ({
    em,
    tenantId: row.tenant_id,
    email: row.email,
    marker: erasedEmail(row.email_hash),
    personal: row.person_sealed ? (JSON.parse(openSecret(row.person_sealed, key())) as SealedPerson).personal : [],
    stripe: { secretsKey: key(), apiUrl: integrationEndpoints?.stripeApiUrl },
  });

  return {
    /**
     * A run's first step: what every entry holds of the person (names, addresses, phone, tax id,
     * IP) gathered before any entry erases, sealed into the request row with what earlier runs
     * gathered; the ids integrators know the person by kept beside it. Answers the run's
     * generation and the kinds to erase, in order.
     */
    async beginErasure(ref: ErasureRef): Promise<{ generation: number; kinds: string[] }> {
      const em = orm.em.fork() as EntityManager;
      const row = await load(em, ref);
      if (!row.email) return { generation: row.generation, kinds: [] };
      const ctx = context(em, row);
      const collected: unknown[] = [row.email, ...ctx.personal];
      for (const entry of PERSONAL_DATA[ref.tenant]) if (entry.collect) collected.push(...(await entry.collect(ctx)));
      const subjects = await subjectIds(em, ref, row.email, ctx.marker, row.subjects);
      await storeErasurePerson(em, row.id, sealSecret(JSON.stringify({ personal: personalValues(collected) } satisfies SealedPerson), key()), subjects);
      return { generation: row.generation, kinds: PERSONAL_DATA[ref.tenant].map((e) => e.kind) };
    },

    /** One kind of data erased, and its count added, in one transaction: how many rows it changed. */
    async erasePersonalDataKind(ref: ErasureRef & { kind: string }): Promise<number> {
      const entry = personalDataEntry(ref.tenant, ref.kind);
      if (!entry) throw ApplicationFailure.nonRetryable(`no ${ref.tenant} personal data kind ${ref.kind}`, 'UnknownPersonalDataKind');
      return (orm.em.fork() as EntityManager).transactional(async (tx) => {
        const row = await load(tx, ref);
        if (!row.email) return 0;
        const changed = await entry.erase(context(tx, row));
        if (changed > 0) await addErasureCount(tx, row.id, entry.kind, changed);
        return changed;
      });
    },

    /** The shop's subscribers of the person (ids), whose renewal workflows the erasure wakes to end. */
    async erasedSubscriberIds(ref: ErasureRef): Promise<number[]> {
      const row = await load(orm.em.fork() as EntityManager, ref);
      return ((row.subjects.subscriber_ids ?? []) as number[]).slice();
    },

    /** The platform's `participant_erased` event of this run, recorded once (operation-keyed). */
    async recordParticipantErased(ref: ErasureRef & { generation: number }): Promise<RecordedDomainEvent[]> {
      return (orm.em.fork() as EntityManager).transactional(async (tx) => {
        const row = await load(tx, ref);
        const participantId = (row.subjects.participant_id as string | undefined) ?? null;
        return recordEvents(tx, ref.tenantId, [participantErased({ participantId, erasureId: row.email_hash })], `erasure/${row.id}/${ref.generation}`);
      });
    },

    /** The delivery of a `customer_erased` event to one shop webhook, made once: the ids the integrator knows the customer by, no personal data. */
    async openCustomerErasedDelivery(input: ErasureRef & { webhookId: string; generation: number; eventId: string; occurredAt: string }): Promise<{ deliveryId: string }> {
      const em = orm.em.fork() as EntityManager;
      const row = await load(em, input);
      const deliveryId = await openShopDelivery(em, input.tenantId, input.webhookId, {
        eventId: input.eventId,
        eventKey: customerErasedEventKey(row.id, input.generation),
        type: 'customer_erased',
        occurredAt: new Date(input.occurredAt),
        payload: { customer: { erasure_id: row.email_hash, order_ids: row.subjects.order_ids ?? [], ordinal_numbers: row.subjects.ordinal_numbers ?? [], subscriber_ids: row.subjects.subscriber_ids ?? [] } },
      });
      if (!deliveryId) throw ApplicationFailure.nonRetryable(`webhook ${input.webhookId} of shop ${input.tenantId} not found`, 'WebhookNotFound');
      return { deliveryId };
    },

    /** A run's last step: completed unless a request came meanwhile (`completed: false`: go round again). */
    async completeErasure(ref: ErasureRef & { generation: number }): Promise<{ completed: boolean; counts: ErasureCounts }> {
      const counts = await completeErasure(orm.em.fork() as EntityManager, ref.erasureId, ref.generation);
      return { completed: counts !== null, counts: counts ?? {} };
    },
  };
}

/** The ids the person is known by to integrators (earlier webhooks carried them), merged with an earlier run's. */
async function subjectIds(em: EntityManager, ref: ErasureRef, email: string, marker: string, earlier: Record<string, unknown>): Promise<Record<string, unknown>> {
  const merge = (key: string, values: unknown[]) => [...new Set([...((earlier[key] as unknown[] | undefined) ?? []), ...values])];
  if (ref.tenant === 'platform') {
    return { participant_id: (await participantIdByEmail(em, ref.tenantId, email)) ?? earlier.participant_id ?? null };
  }
  const orders = await shopOrdersByEmails(em, ref.tenantId, [email, marker]);
  const subscribers = await shopSubscriberIdsByEmails(em, ref.tenantId, [email, marker]);
  return {
    order_ids: merge('order_ids', orders.map((o) => o.id)),
    ordinal_numbers: merge('ordinal_numbers', orders.map((o) => o.ordinal_number)),
    subscriber_ids: merge('subscriber_ids', subscribers.map((s) => s.id)),
  };
}

/** What a workflow proxies of this file: `activitiesOf<PersonalDataActivities>(profile)` (workflows/shared/activities-of.ts). */
export type PersonalDataActivities = ReturnType<typeof personalDataActivities>;
