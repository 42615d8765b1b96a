import { Migration } from '@mikro-orm/migrations';

export class Migration20261123045420_SubscriberBilling extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_payment_gateways" ("id" serial primary key, "shop_id" uuid not null, "mode" varchar(16) not null default 'approve', "dunning_days" int[] not null default '{1,3,5}', "updated_at" timestamptz not null);`);
    this.addSql(`alter table "shop_payment_gateways" add constraint "shop_payment_gateways_shop_id_unique" unique ("shop_id");`);

    this.addSql(`create table "shop_subscriber_charges" ("id" serial primary key, "shop_id" uuid not null, "subscriber_id" int not null, "period_id" int not null, "attempt" int not null, "key" varchar(255) not null, "amount" numeric(12,2) not null, "currency" varchar(3) not null, "cart" jsonb null, "status" varchar(16) not null, "gateway_reference" varchar(255) null, "decline_reason" text null, "order_id" int null, "at" timestamptz not null);`);
    this.addSql(`create index "shop_subscriber_charges_subscriber_id_period_id_index" on "shop_subscriber_charges" ("subscriber_id", "period_id");`);
    this.addSql(`alter table "shop_subscriber_charges" add constraint "shop_subscriber_charges_key_unique" unique ("key");`);

    this.addSql(`alter table "shop_payment_gateways" add constraint "shop_payment_gateways_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_subscriber_charges" add constraint "shop_subscriber_charges_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscriber_charges" add constraint "shop_subscriber_charges_subscriber_id_foreign" foreign key ("subscriber_id") references "shop_subscribers" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_subscriber_charges" add constraint "shop_subscriber_charges_period_id_foreign" foreign key ("period_id") references "shop_subscriber_periods" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_subscriber_charges" add constraint "shop_subscriber_charges_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_payment_gateways" cascade;`);

    this.addSql(`drop table if exists "shop_subscriber_charges" cascade;`);
  }

}
