import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One person's erasure in one tenant (issue 29): `tenantKind` `shop` or `platform`, the tenant's
 * id and the e-mail's keyed hash (domain/shared/personal-data.ts), never the e-mail in clear.
 * While a run is under way the e-mail and what the run collected about the person are sealed
 * with `SECRETS_KEY` (`emailSealed`, `personSealed`); the run's last step clears both. `generation`
 * counts requests: a request during a run makes the run go round again. `counts` adds up what
 * every run changed per kind of data; `subjects` keeps the ids (orders, subscribers, participant)
 * an integrator knows the person by, for the `customer_erased` / `participant_erased` webhooks.
 */
export const PersonalDataErasure = defineEntity({
  name: 'PersonalDataErasure',
  tableName: 'personal_data_erasures',
  uniques: [{ properties: ['tenantKind', 'tenantId', 'emailHash'] }],
  properties: {
    id: p.uuid().primary(),
    tenantKind: p.string().length(8),
    tenantId: p.uuid(),
    emailHash: p.string().length(64),
    workflowId: p.text(),
    emailSealed: p.text().nullable(),
    personSealed: p.text().nullable(),
    generation: p.integer().default(1),
    completedGeneration: p.integer().default(0),
    status: p.string().length(16).default('running'),
    counts: p.json<Record<string, number>>().default('{}'),
    subjects: p.json<Record<string, unknown>>().default('{}'),
    requestedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});
export type IPersonalDataErasure = InferEntity<typeof PersonalDataErasure>;

/** The installation's salt of e-mail hashes: one row, made by the migration. */
export const PersonalDataSalt = defineEntity({
  name: 'PersonalDataSalt',
  tableName: 'personal_data_salt',
  properties: {
    id: p.integer().primary(),
    salt: p.string().length(64),
  },
});
