import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044802_ProductSetsAndUpsellGroups extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_product_sets" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "slug" varchar(255) not null, "price" numeric(12,2) not null, "active" boolean not null default true, "priority" int not null default 0, "auto_calculate_prices" boolean not null default true, "link_only_discount" boolean not null default false, "pool_mode" boolean not null default false, "pool_pick_count" int null, "custom_payment_types" boolean not null default false, "payment_type_ids" int[] not null default '{}', "expose_in_feeds" boolean not null default false, "feed_description" text not null default '', "ean" varchar(13) null, "google_product_category" varchar(255) not null default '', "producer" varchar(255) not null default '', "product_category_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_product_sets_shop_id_priority_index" on "shop_product_sets" ("shop_id", "priority");`);
    this.addSql(`alter table "shop_product_sets" add constraint "shop_product_sets_shop_id_slug_unique" unique ("shop_id", "slug");`);

    this.addSql(`create table "shop_recommendation_groups" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "title" varchar(255) not null default '', "subtitle" varchar(255) not null default '', "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_recommendation_groups_shop_id_created_at_index" on "shop_recommendation_groups" ("shop_id", "created_at");`);

    this.addSql(`create table "shop_product_set_items" ("id" serial primary key, "shop_id" uuid not null, "product_set_id" int not null, "product_id" int not null, "quantity" int not null default 1, "custom_price" numeric(12,2) null);`);
    this.addSql(`create index "shop_product_set_items_product_set_id_index" on "shop_product_set_items" ("product_set_id");`);
    this.addSql(`create index "shop_product_set_items_shop_id_product_id_index" on "shop_product_set_items" ("shop_id", "product_id");`);

    this.addSql(`create table "shop_recommendation_items" ("id" serial primary key, "shop_id" uuid not null, "group_id" int not null, "product_id" int not null, "title" varchar(255) not null default '', "subtitle" varchar(255) not null default '', "priority" int not null default 0, "invokes_recommendation" boolean not null default false, "is_recommended" boolean not null default false);`);
    this.addSql(`create index "shop_recommendation_items_group_id_index" on "shop_recommendation_items" ("group_id");`);
    this.addSql(`create index "shop_recommendation_items_shop_id_product_id_index" on "shop_recommendation_items" ("shop_id", "product_id");`);

    this.addSql(`alter table "shop_product_sets" add constraint "shop_product_sets_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_recommendation_groups" add constraint "shop_recommendation_groups_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_product_set_items" add constraint "shop_product_set_items_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_product_set_items" add constraint "shop_product_set_items_product_set_id_foreign" foreign key ("product_set_id") references "shop_product_sets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_product_set_items" add constraint "shop_product_set_items_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "shop_recommendation_items" add constraint "shop_recommendation_items_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_recommendation_items" add constraint "shop_recommendation_items_group_id_foreign" foreign key ("group_id") references "shop_recommendation_groups" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_recommendation_items" add constraint "shop_recommendation_items_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_product_set_items" drop constraint "shop_product_set_items_product_set_id_foreign";`);

    this.addSql(`alter table "shop_recommendation_items" drop constraint "shop_recommendation_items_group_id_foreign";`);

    this.addSql(`drop table if exists "shop_product_sets" cascade;`);

    this.addSql(`drop table if exists "shop_recommendation_groups" cascade;`);

    this.addSql(`drop table if exists "shop_product_set_items" cascade;`);

    this.addSql(`drop table if exists "shop_recommendation_items" cascade;`);
  }

}
