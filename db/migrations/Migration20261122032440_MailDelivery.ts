import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032440_MailDelivery extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "mail_delivery_providers" ("id" uuid not null, "platform_id" uuid not null, "provider" varchar(16) not null, "active" boolean not null default false, "fields" jsonb not null, "sealed_secrets" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "mail_delivery_providers_pkey" primary key ("id"));`);
    this.addSql(`alter table "mail_delivery_providers" add constraint "mail_delivery_providers_platform_id_provider_unique" unique ("platform_id", "provider");`);

    this.addSql(`alter table "mail_delivery_providers" add constraint "mail_delivery_providers_platform_id_foreign" foreign key ("platform_id") references "platforms" ("id") on update cascade;`);

    this.addSql(`alter table "mail_log" add column "sender_name" varchar(255) null, add column "sender_email" varchar(255) null, add column "status" varchar(16) not null default 'pending', add column "provider" varchar(16) null, add column "provider_message_id" varchar(255) null, add column "attempts" int not null default 0, add column "last_error" text null, add column "delivered_at" timestamptz null;`);
    // Mails recorded before delivery existed were recorded only, by the platform.
    this.addSql(`update "mail_log" set "status" = 'recorded', "provider" = 'platform';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "mail_delivery_providers" cascade;`);

    this.addSql(`alter table "mail_log" drop column "sender_name", drop column "sender_email", drop column "status", drop column "provider", drop column "provider_message_id", drop column "attempts", drop column "last_error", drop column "delivered_at";`);
  }

}
