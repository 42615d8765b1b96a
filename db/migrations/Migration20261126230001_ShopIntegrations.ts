import { Migration } from '@mikro-orm/migrations';

/** Issue 23: Stripe keys of the shop's gateway, its GA4 and mailing-tool settings, Stripe customers and order payments. */
export class Migration20261126230001_ShopIntegrations extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_order_payments" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "provider" varchar(16) not null, "payment_intent_id" varchar(255) not null, "amount" numeric(12,2) not null, "currency" varchar(3) not null, "customer_id" varchar(255) null, "save_for_later" boolean not null default false, "payment_method_id" varchar(255) null, "succeeded_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "shop_order_payments" add constraint "shop_order_payments_order_id_unique" unique ("order_id");`);
    this.addSql(`alter table "shop_order_payments" add constraint "shop_order_payments_payment_intent_id_unique" unique ("payment_intent_id");`);

    this.addSql(`create table "shop_analytics_integrations" ("id" serial primary key, "shop_id" uuid not null, "measurement_id" varchar(64) not null, "api_secret_sealed" text not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "shop_analytics_integrations" add constraint "shop_analytics_integrations_shop_id_unique" unique ("shop_id");`);

    this.addSql(`create table "shop_marketing_integrations" ("id" serial primary key, "shop_id" uuid not null, "provider" varchar(32) not null, "api_key_sealed" text not null, "list_id" varchar(64) not null, "tags" jsonb not null, "product_tags" jsonb not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "shop_marketing_integrations" add constraint "shop_marketing_integrations_shop_id_unique" unique ("shop_id");`);

    this.addSql(`create table "shop_stripe_customers" ("id" serial primary key, "shop_id" uuid not null, "email" varchar(255) not null, "customer_id" varchar(255) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "shop_stripe_customers" add constraint "shop_stripe_customers_shop_id_email_unique" unique ("shop_id", "email");`);

    this.addSql(`alter table "shop_order_payments" add constraint "shop_order_payments_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_order_payments" add constraint "shop_order_payments_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_analytics_integrations" add constraint "shop_analytics_integrations_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_marketing_integrations" add constraint "shop_marketing_integrations_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_stripe_customers" add constraint "shop_stripe_customers_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_payment_gateways" add column "secret_key_sealed" text null, add column "webhook_secret_sealed" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_order_payments" cascade;`);
    this.addSql(`drop table if exists "shop_analytics_integrations" cascade;`);
    this.addSql(`drop table if exists "shop_marketing_integrations" cascade;`);
    this.addSql(`drop table if exists "shop_stripe_customers" cascade;`);
    this.addSql(`alter table "shop_payment_gateways" drop column "secret_key_sealed", drop column "webhook_secret_sealed";`);
  }

}
