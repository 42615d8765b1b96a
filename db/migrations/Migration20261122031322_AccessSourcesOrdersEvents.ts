import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031322_AccessSourcesOrdersEvents extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "orders" ("id" uuid not null, "platform_id" uuid not null, "external_id" varchar(255) not null, "email" varchar(255) not null, "ordinal_number" varchar(255) null, "gift_code" varchar(255) null, "ordered_contents" jsonb not null, "status" text check ("status" in ('registered', 'cancelled')) not null default 'registered', "seq" bigint not null, "created_at" timestamptz not null, "fulfilled_at" timestamptz null, "cancelled_at" timestamptz null, constraint "orders_pkey" primary key ("id"));`);
    this.addSql(`alter table "orders" add constraint "orders_platform_id_external_id_unique" unique ("platform_id", "external_id");`);

    this.addSql(`create table "domain_events" ("id" uuid not null, "platform_id" uuid not null, "type" varchar(255) not null, "payload" jsonb not null, "operation_key" varchar(255) not null, "occurred_at" timestamptz not null, constraint "domain_events_pkey" primary key ("id"));`);
    this.addSql(`create index "domain_events_operation_key_index" on "domain_events" ("operation_key");`);
    this.addSql(`create index "domain_events_platform_id_occurred_at_index" on "domain_events" ("platform_id", "occurred_at");`);

    this.addSql(`create table "access_sources" ("id" uuid not null, "platform_id" uuid not null, "participant_id" uuid not null, "course_id" uuid not null, "source_key" varchar(255) not null, "order_id" uuid null, "access_level" smallint not null default 0, "revoked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "access_sources_pkey" primary key ("id"));`);
    this.addSql(`create index "access_sources_order_id_index" on "access_sources" ("order_id");`);
    this.addSql(`alter table "access_sources" add constraint "access_sources_participant_id_course_id_source_key_unique" unique ("participant_id", "course_id", "source_key");`);

    this.addSql(`alter table "orders" add constraint "orders_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "domain_events" add constraint "domain_events_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "access_sources" add constraint "access_sources_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);
    this.addSql(`alter table "access_sources" add constraint "access_sources_participant_id_foreign" foreign key ("participant_id") references "participants" ("id") on update cascade;`);
    this.addSql(`alter table "access_sources" add constraint "access_sources_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade;`);
    this.addSql(`alter table "access_sources" add constraint "access_sources_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "enrolments" add column "granted_seq" bigint not null default 0, add column "revoked_seq" bigint not null default 0;`);

    this.addSql(`alter table "audiobook_accesses" add column "granted_seq" bigint not null default 0, add column "revoked_seq" bigint not null default 0, add column "updated_at" timestamptz not null default now();`);
    this.addSql(`alter table "audiobook_accesses" alter column "updated_at" drop default;`);

    // Orders grant and revoke commands as the API accepts them (domain/access-commands.ts).
    this.addSql(`create sequence if not exists "access_command_seq";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop sequence if exists "access_command_seq";`);
    this.addSql(`alter table "access_sources" drop constraint "access_sources_order_id_foreign";`);

    this.addSql(`drop table if exists "orders" cascade;`);

    this.addSql(`drop table if exists "domain_events" cascade;`);

    this.addSql(`drop table if exists "access_sources" cascade;`);

    this.addSql(`alter table "audiobook_accesses" drop column "granted_seq", drop column "revoked_seq", drop column "updated_at";`);

    this.addSql(`alter table "enrolments" drop column "granted_seq", drop column "revoked_seq";`);
  }

}
