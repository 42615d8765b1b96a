import { Migration } from '@mikro-orm/migrations';

export class Migration20261126240001_StorefrontCarts extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_carts" ("id" uuid not null, "shop_id" uuid not null, "state" jsonb not null, "order_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "shop_carts_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_carts_updated_at_index" on "shop_carts" ("updated_at");`);

    this.addSql(`alter table "shop_carts" add constraint "shop_carts_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_carts" cascade;`);
  }

}
