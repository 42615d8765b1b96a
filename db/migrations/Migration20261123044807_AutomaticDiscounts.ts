import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044807_AutomaticDiscounts extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_automatic_discounts" ("id" serial primary key, "shop_id" uuid not null, "kind" varchar(16) not null, "discount_type" varchar(48) not null, "value" numeric(12,2) not null, "relation_with_products" varchar(32) not null default 'all_products', "product_ids" int[] not null default '{}', "product_category_ids" int[] not null default '{}', "usages_limit" int null, "usages" int not null default 0, "active" boolean not null default true, "email" varchar(255) null, "email_domain" varchar(255) null, "minimum_order_value" numeric(12,2) null, "start_date" timestamptz null, "end_date" timestamptz null, "revision" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_automatic_discounts_shop_id_kind_id_index" on "shop_automatic_discounts" ("shop_id", "kind", "id");`);

    this.addSql(`create table "shop_product_price_changes" ("id" serial primary key, "shop_id" uuid not null, "discount_id" int not null, "product_id" int not null, "original_price" numeric(12,2) not null, "discounted_price" numeric(12,2) not null, "applied_at" timestamptz not null, "restored_at" timestamptz null);`);
    this.addSql(`create index "shop_product_price_changes_shop_id_discount_id_index" on "shop_product_price_changes" ("shop_id", "discount_id");`);
    this.addSql(`create unique index "shop_product_price_changes_open_unique" on "shop_product_price_changes" ("product_id") where "restored_at" is null;`);

    this.addSql(`alter table "shop_automatic_discounts" add constraint "shop_automatic_discounts_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_product_price_changes" add constraint "shop_product_price_changes_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_product_price_changes" cascade;`);
    this.addSql(`drop table if exists "shop_automatic_discounts" cascade;`);
  }

}
