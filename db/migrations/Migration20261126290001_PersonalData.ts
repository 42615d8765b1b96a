import { Migration } from '@mikro-orm/migrations';

/** Issue 29: erasure requests per person and tenant, and the installation's salt of e-mail hashes. */
export class Migration20261126290001_PersonalData extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "personal_data_erasures" ("id" uuid not null, "tenant_kind" varchar(8) not null, "tenant_id" uuid not null, "email_hash" varchar(64) not null, "workflow_id" text not null, "email_sealed" text null, "person_sealed" text null, "generation" int not null default 1, "completed_generation" int not null default 0, "status" varchar(16) not null default 'running', "counts" jsonb not null default '{}', "subjects" jsonb not null default '{}', "requested_at" timestamptz not null, "completed_at" timestamptz null, constraint "personal_data_erasures_pkey" primary key ("id"));`);
    this.addSql(`alter table "personal_data_erasures" add constraint "personal_data_erasures_tenant_kind_tenant_id_email_hash_unique" unique ("tenant_kind", "tenant_id", "email_hash");`);
    this.addSql(`create table "personal_data_salt" ("id" serial primary key, "salt" varchar(64) not null);`);
    // 256 random bits (gen_random_uuid draws from the strong random source), made once per installation.
    this.addSql(`insert into "personal_data_salt" ("salt") values (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "personal_data_erasures" cascade;`);
    this.addSql(`drop table if exists "personal_data_salt" cascade;`);
  }

}
