import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys (api/shared/idempotency): one row per (tenant kind, tenant, key), claimed by an
 * insert that PostgreSQL decides, holding the request's fingerprint and, once done, the reply.
 */
export class Migration20261126280001_IdempotencyKeys extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("tenant_kind" varchar(16) not null, "tenant_id" text not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "state" varchar(8) not null, "status" smallint null, "content_type" text null, "location" text null, "body" text null, "claimed_at" timestamptz not null, "expires_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("tenant_kind", "tenant_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }

}
