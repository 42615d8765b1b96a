import { Migration } from '@mikro-orm/migrations';

export class Migration20261123045133_MailSequences extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_mail_sequences" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "sender_id" int null, "sending_time" varchar(5) not null default '09:00', "only_first_purchase" boolean not null default false, "active" boolean not null default true, "status_id" int null, "products_dependent" boolean not null default false, "product_ids" int[] not null default '{}', "discount_code_id" int null, "subscription_plan_id" int null, "newsletter_subscription" boolean not null default false, "first_subscription_entry" boolean not null default false, "recipient_discount_code" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_mail_sequences_shop_id_status_id_index" on "shop_mail_sequences" ("shop_id", "status_id");`);

    this.addSql(`create table "shop_mail_sequence_items" ("id" serial primary key, "shop_id" uuid not null, "sequence_id" int not null, "position" int not null, "subject" text not null, "content" text not null, "offset_amount" int not null, "offset_unit" varchar(8) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_mail_sequence_items_sequence_id_position_index" on "shop_mail_sequence_items" ("sequence_id", "position");`);

    this.addSql(`alter table "shop_mail_sequences" add constraint "shop_mail_sequences_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_mail_sequence_items" add constraint "shop_mail_sequence_items_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_mail_sequence_items" add constraint "shop_mail_sequence_items_sequence_id_foreign" foreign key ("sequence_id") references "shop_mail_sequences" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_mail_sequence_items" drop constraint "shop_mail_sequence_items_sequence_id_foreign";`);

    this.addSql(`drop table if exists "shop_mail_sequences" cascade;`);

    this.addSql(`drop table if exists "shop_mail_sequence_items" cascade;`);
  }

}
