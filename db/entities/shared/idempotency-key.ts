import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One Idempotency-Key of one tenant (api/shared/idempotency): `tenantKind` names the interface's
 * tenant (`platform`, `shop`, `storefront`), so a key never reaches another tenant. A row is the
 * kept reply (never a 5xx), written in the transaction of the change it answers, for 24 hours.
 * Read and written by db/repositories/shared/idempotency-keys.ts only; not tenant-filtered (the
 * tenant is part of the key).
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    tenantKind: p.string().length(16).primary(),
    tenantId: p.text().primary(),
    key: p.string().length(255).primary(),
    fingerprint: p.string().length(64),
    /** Always `done` (the default) since issue 41 item 1; `running` only from an api of the release before, mid-deploy. */
    state: p.string().length(8).default('done'),
    status: p.smallint().nullable(),
    contentType: p.text().nullable(),
    location: p.text().nullable(),
    body: p.text().nullable(),
    claimedAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type IIdempotencyKey = InferEntity<typeof IdempotencyKey>;
