import { Migration } from '@mikro-orm/migrations';

export class Migration20261123044733_NewsletterSubscribers extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_newsletter_subscribers" ("id" serial primary key, "shop_id" uuid not null, "email" varchar(254) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "shop_newsletter_subscribers" add constraint "shop_newsletter_subscribers_shop_id_email_unique" unique ("shop_id", "email");`);

    this.addSql(`alter table "shop_newsletter_subscribers" add constraint "shop_newsletter_subscribers_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_newsletter_subscribers" cascade;`);
  }

}
