import { Migration } from '@mikro-orm/migrations';

export class Migration20261123023535_ShopOrderEffects extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_order_status_changes" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "from_status_id" int not null, "to_status_id" int not null, "at" timestamptz not null);`);
    this.addSql(`create index "shop_order_status_changes_order_id_index" on "shop_order_status_changes" ("order_id");`);

    this.addSql(`create table "shop_order_effects" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "source" varchar(32) not null, "effect" varchar(32) not null, "target" varchar(64) not null default '', "status" varchar(16) not null, "detail" text not null default '', "at" timestamptz not null);`);
    this.addSql(`alter table "shop_order_effects" add constraint "shop_order_effects_order_id_source_effect_target_unique" unique ("order_id", "source", "effect", "target");`);

    this.addSql(`create table "shop_download_codes" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "order_item_id" int not null, "content_id" int null, "token" varchar(64) not null, "file_name" varchar(255) not null, "usages" int not null default 0, "usages_to_expire" int not null, "expires_at" timestamptz not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_download_codes_order_id_index" on "shop_download_codes" ("order_id");`);
    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_order_item_id_content_id_unique" unique ("order_item_id", "content_id");`);
    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_token_unique" unique ("token");`);

    this.addSql(`create table "shop_mails" ("id" uuid not null, "shop_id" uuid not null, "key" varchar(255) not null, "kind" varchar(16) not null, "from_address" varchar(255) not null, "from_name" varchar(255) not null, "to" varchar(255) not null, "subject" text not null, "html" text not null, "status" varchar(16) not null, "error" text null, "sent_at" timestamptz not null, constraint "shop_mails_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_mails_shop_id_to_index" on "shop_mails" ("shop_id", "to");`);
    this.addSql(`alter table "shop_mails" add constraint "shop_mails_shop_id_key_unique" unique ("shop_id", "key");`);

    this.addSql(`alter table "shop_order_status_changes" add constraint "shop_order_status_changes_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_order_status_changes" add constraint "shop_order_status_changes_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade;`);

    this.addSql(`alter table "shop_order_effects" add constraint "shop_order_effects_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_order_effects" add constraint "shop_order_effects_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade;`);

    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade;`);
    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_order_item_id_foreign" foreign key ("order_item_id") references "shop_order_items" ("id") on update cascade;`);
    this.addSql(`alter table "shop_download_codes" add constraint "shop_download_codes_content_id_foreign" foreign key ("content_id") references "shop_electronic_contents" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_mails" add constraint "shop_mails_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_order_status_changes" cascade;`);

    this.addSql(`drop table if exists "shop_order_effects" cascade;`);

    this.addSql(`drop table if exists "shop_download_codes" cascade;`);

    this.addSql(`drop table if exists "shop_mails" cascade;`);

  }

}
