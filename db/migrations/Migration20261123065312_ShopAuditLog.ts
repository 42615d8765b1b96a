import { Migration } from '@mikro-orm/migrations';

export class Migration20261123065312_ShopAuditLog extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_audit_log" ("id" serial primary key, "shop_id" uuid not null, "at" timestamptz not null, "method" varchar(10) not null, "path" text not null, "status" smallint not null, "key_prefix" varchar(16) null);`);
    this.addSql(`create index "shop_audit_log_shop_id_at_index" on "shop_audit_log" ("shop_id", "at");`);

    this.addSql(`alter table "shop_audit_log" add constraint "shop_audit_log_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_audit_log" cascade;`);
  }

}
