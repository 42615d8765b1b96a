import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044956_ClubIntegration extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_club_integrations" ("id" uuid not null, "shop_id" uuid not null, "active" boolean not null default true, "url_sealed" text not null, "host" varchar(255) not null, "secret_sealed" text null, "order_status_id" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "shop_club_integrations_pkey" primary key ("id"));`);
    this.addSql(`alter table "shop_club_integrations" add constraint "shop_club_integrations_shop_id_unique" unique ("shop_id");`);

    this.addSql(`create table "shop_club_webhook_deliveries" ("id" uuid not null, "shop_id" uuid not null, "webhook_id" uuid not null, "order_id" int not null, "order_status_id" int not null, "source" varchar(32) not null, "event_id" uuid not null, "event_type" varchar(32) not null, "payload" jsonb not null, "occurred_at" timestamptz not null, "status" varchar(16) not null default 'pending', "attempt_count" int not null default 0, "next_attempt_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "shop_club_webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`alter table "shop_club_webhook_deliveries" add constraint "shop_club_webhook_deliveries_order_id_order_status_id_unique" unique ("order_id", "order_status_id");`);

    this.addSql(`create table "shop_club_webhook_delivery_attempts" ("id" uuid not null, "shop_id" uuid not null, "delivery_id" uuid not null, "attempted_at" timestamptz not null, "status_code" smallint null, "duration_ms" int not null, "error" text null, "manual" boolean not null default false, constraint "shop_club_webhook_delivery_attempts_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_club_webhook_delivery_attempts_delivery_id_at_20043_index" on "shop_club_webhook_delivery_attempts" ("delivery_id", "attempted_at");`);

    this.addSql(`create table "shop_club_products" ("id" serial primary key, "shop_id" uuid not null, "club_id" uuid not null, "product_id" int not null);`);
    this.addSql(`alter table "shop_club_products" add constraint "shop_club_products_club_id_product_id_unique" unique ("club_id", "product_id");`);

    this.addSql(`alter table "shop_club_integrations" add constraint "shop_club_integrations_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_club_integrations" add constraint "shop_club_integrations_order_status_id_foreign" foreign key ("order_status_id") references "shop_order_statuses" ("id") on update cascade;`);

    this.addSql(`alter table "shop_club_webhook_deliveries" add constraint "shop_club_webhook_deliveries_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_club_webhook_deliveries" add constraint "shop_club_webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "shop_club_integrations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_club_webhook_deliveries" add constraint "shop_club_webhook_deliveries_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "shop_club_webhook_delivery_attempts" add constraint "shop_club_webhook_delivery_attempts_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_club_webhook_delivery_attempts" add constraint "shop_club_webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "shop_club_webhook_deliveries" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "shop_club_products" add constraint "shop_club_products_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_club_products" add constraint "shop_club_products_club_id_foreign" foreign key ("club_id") references "shop_club_integrations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_club_products" add constraint "shop_club_products_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_club_webhook_deliveries" drop constraint "shop_club_webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`alter table "shop_club_products" drop constraint "shop_club_products_club_id_foreign";`);

    this.addSql(`alter table "shop_club_webhook_delivery_attempts" drop constraint "shop_club_webhook_delivery_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "shop_club_integrations" cascade;`);

    this.addSql(`drop table if exists "shop_club_webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "shop_club_webhook_delivery_attempts" cascade;`);

    this.addSql(`drop table if exists "shop_club_products" cascade;`);
  }

}
