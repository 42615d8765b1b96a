import { Migration } from '@mikro-orm/migrations';

export class Migration20261123030737_ShopWebhooks extends Migration {

  override async up(): Promise<void> {

    this.addSql(`create table "shop_webhooks" ("id" uuid not null, "shop_id" uuid not null, "url" text not null, "events" text[] not null, "active" boolean not null default true, "secret_sealed" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, constraint "shop_webhooks_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_webhooks_shop_id_created_at_index" on "shop_webhooks" ("shop_id", "created_at");`);

    this.addSql(`create table "shop_webhook_deliveries" ("id" uuid not null, "shop_id" uuid not null, "webhook_id" uuid not null, "event_id" uuid not null, "event_key" varchar(128) not null, "event_type" varchar(32) not null, "payload" jsonb not null, "occurred_at" timestamptz not null, "status" varchar(16) not null default 'pending', "attempt_count" int not null default 0, "next_attempt_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "shop_webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_webhook_deliveries_webhook_id_created_at_index" on "shop_webhook_deliveries" ("webhook_id", "created_at");`);
    this.addSql(`alter table "shop_webhook_deliveries" add constraint "shop_webhook_deliveries_webhook_id_event_key_unique" unique ("webhook_id", "event_key");`);

    this.addSql(`create table "shop_webhook_delivery_attempts" ("id" uuid not null, "shop_id" uuid not null, "delivery_id" uuid not null, "attempted_at" timestamptz not null, "status_code" smallint null, "duration_ms" int not null, "error" text null, "manual" boolean not null default false, constraint "shop_webhook_delivery_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_webhook_delivery_attempts_delivery_id_attempted_at_index" on "shop_webhook_delivery_attempts" ("delivery_id", "attempted_at");`);

    this.addSql(`alter table "shop_webhooks" add constraint "shop_webhooks_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_webhook_deliveries" add constraint "shop_webhook_deliveries_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_webhook_deliveries" add constraint "shop_webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "shop_webhooks" ("id") on update cascade;`);

    this.addSql(`alter table "shop_webhook_delivery_attempts" add constraint "shop_webhook_delivery_attempts_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_webhook_delivery_attempts" add constraint "shop_webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "shop_webhook_deliveries" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {

    this.addSql(`alter table "shop_webhook_deliveries" drop constraint "shop_webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`alter table "shop_webhook_delivery_attempts" drop constraint "shop_webhook_delivery_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "shop_webhooks" cascade;`);

    this.addSql(`drop table if exists "shop_webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "shop_webhook_delivery_attempts" cascade;`);
  }

}
