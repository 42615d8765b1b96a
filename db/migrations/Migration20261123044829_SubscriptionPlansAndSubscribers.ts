import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044829_SubscriptionPlansAndSubscribers extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_subscription_plans" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "automatic_renewal" boolean not null default false, "extension_strategy" varchar(16) not null default 'immediate', "free_delivery_minimum_amount" numeric(12,2) null, "superseded_plan_id" int null, "send_email_about_activation" boolean not null default false, "send_email_about_renewal" boolean not null default false, "send_email_about_expiration_in_one_day" boolean not null default false, "send_email_about_expiration_in_one_week" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_subscription_plans_shop_id_created_at_index" on "shop_subscription_plans" ("shop_id", "created_at");`);

    this.addSql(`create table "shop_subscribers" ("id" serial primary key, "shop_id" uuid not null, "service_ref" varchar(64) not null, "custom_identifier" varchar(255) null, "email" varchar(255) not null, "plan_id" int not null, "product_id" int null, "order_id" int null, "renewal_paused" boolean not null default false, "renewal_interval_days" int null, "renewal_items" jsonb not null default '[]', "payment_reference" varchar(255) null, "status" varchar(16) not null default 'active', "renewals_done" int not null default 0, "ended_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_subscribers_shop_id_email_index" on "shop_subscribers" ("shop_id", "email");`);
    this.addSql(`create index "shop_subscribers_shop_id_plan_id_index" on "shop_subscribers" ("shop_id", "plan_id");`);
    this.addSql(`create index "shop_subscribers_shop_id_custom_identifier_index" on "shop_subscribers" ("shop_id", "custom_identifier");`);
    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_service_ref_unique" unique ("service_ref");`);
    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_order_id_product_id_unique" unique ("order_id", "product_id");`);

    this.addSql(`create table "shop_subscriber_periods" ("id" serial primary key, "shop_id" uuid not null, "subscriber_id" int not null, "kind" varchar(16) not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "order_id" int null, "moved_from" timestamptz null, "moved_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_subscriber_periods_subscriber_id_ends_at_index" on "shop_subscriber_periods" ("subscriber_id", "ends_at");`);
    this.addSql(`alter table "shop_subscriber_periods" add constraint "shop_subscriber_periods_subscriber_id_order_id_unique" unique ("subscriber_id", "order_id");`);

    this.addSql(`create table "shop_subscription_plan_products" ("id" serial primary key, "shop_id" uuid not null, "plan_id" int not null, "product_id" int not null, "interval" int not null, "renewals_limit" int not null default 0, "automatic_renewal" boolean not null default false);`);
    this.addSql(`create index "shop_subscription_plan_products_product_id_index" on "shop_subscription_plan_products" ("product_id");`);
    this.addSql(`create unique index "shop_subscription_plan_products_one_automatic_plan" on "shop_subscription_plan_products" ("product_id") where "automatic_renewal";`);
    this.addSql(`alter table "shop_subscription_plan_products" add constraint "shop_subscription_plan_products_plan_id_product_id_unique" unique ("plan_id", "product_id");`);

    this.addSql(`alter table "shop_subscription_plans" add constraint "shop_subscription_plans_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscription_plans" add constraint "shop_subscription_plans_superseded_plan_id_foreign" foreign key ("superseded_plan_id") references "shop_subscription_plans" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_plan_id_foreign" foreign key ("plan_id") references "shop_subscription_plans" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "shop_subscribers" add constraint "shop_subscribers_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_subscriber_periods" add constraint "shop_subscriber_periods_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscriber_periods" add constraint "shop_subscriber_periods_subscriber_id_foreign" foreign key ("subscriber_id") references "shop_subscribers" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_subscriber_periods" add constraint "shop_subscriber_periods_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_subscription_plan_products" add constraint "shop_subscription_plan_products_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscription_plan_products" add constraint "shop_subscription_plan_products_plan_id_foreign" foreign key ("plan_id") references "shop_subscription_plans" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_subscription_plan_products" add constraint "shop_subscription_plan_products_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_subscription_plans" drop constraint "shop_subscription_plans_superseded_plan_id_foreign";`);

    this.addSql(`alter table "shop_subscribers" drop constraint "shop_subscribers_plan_id_foreign";`);

    this.addSql(`alter table "shop_subscription_plan_products" drop constraint "shop_subscription_plan_products_plan_id_foreign";`);

    this.addSql(`alter table "shop_subscriber_periods" drop constraint "shop_subscriber_periods_subscriber_id_foreign";`);

    this.addSql(`drop table if exists "shop_subscription_plans" cascade;`);

    this.addSql(`drop table if exists "shop_subscribers" cascade;`);

    this.addSql(`drop table if exists "shop_subscriber_periods" cascade;`);

    this.addSql(`drop table if exists "shop_subscription_plan_products" cascade;`);
  }

}
