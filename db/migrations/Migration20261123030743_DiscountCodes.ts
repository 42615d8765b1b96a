import { Migration } from '@mikro-orm/migrations';

export class Migration20261123030743_DiscountCodes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_discount_code_pools" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "activate_on_draw" boolean not null default false, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_discount_code_pools_shop_id_index" on "shop_discount_code_pools" ("shop_id");`);

    this.addSql(`create table "shop_discount_codes" ("id" serial primary key, "shop_id" uuid not null, "pool_id" int null, "code" varchar(255) not null, "name" varchar(255) not null default '', "discount_type" varchar(48) not null, "value" numeric(12,2) null, "case_sensitive" boolean not null default true, "minimum_amount" numeric(12,2) null, "usages_limit" int null, "usages_per_customer_limit" int null, "usages" int not null default 0, "active" boolean not null default true, "start_date" timestamptz null, "end_date" timestamptz null, "combine_with_other_discount" boolean not null default true, "relation_with_products" varchar(32) not null default 'all_products', "product_ids" int[] not null default '{}', "product_category_ids" int[] not null default '{}', "relation_with_delivery_types" varchar(32) not null default 'all_delivery_types', "delivery_type_ids" int[] not null default '{}', "drawn_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create unique index "shop_discount_codes_shop_code_unique" on "shop_discount_codes" ("shop_id", lower("code"));`);
    this.addSql(`create index "shop_discount_codes_shop_id_created_at_index" on "shop_discount_codes" ("shop_id", "created_at");`);
    this.addSql(`create index "shop_discount_codes_pool_free_index" on "shop_discount_codes" ("pool_id", "id") where "drawn_at" is null;`);

    this.addSql(`alter table "shop_discount_code_pools" add constraint "shop_discount_code_pools_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_discount_codes" add constraint "shop_discount_codes_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_discount_codes" add constraint "shop_discount_codes_pool_id_foreign" foreign key ("pool_id") references "shop_discount_code_pools" ("id") on update cascade on delete set null;`);

  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_discount_codes" drop constraint "shop_discount_codes_pool_id_foreign";`);

    this.addSql(`drop table if exists "shop_discount_code_pools" cascade;`);

    this.addSql(`drop table if exists "shop_discount_codes" cascade;`);

  }

}
