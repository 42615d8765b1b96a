import { Migration } from '@mikro-orm/migrations';

export class Migration20261123055037_MailSequenceRecipientCodes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_mail_sequence_recipient_codes" ("id" serial primary key, "shop_id" uuid not null, "sequence_id" int not null, "email" text not null, "discount_code_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "shop_mail_sequence_recipient_codes" add constraint "shop_mail_sequence_recipient_codes_sequence_id_email_unique" unique ("sequence_id", "email");`);

    this.addSql(`alter table "shop_mail_sequence_recipient_codes" add constraint "shop_mail_sequence_recipient_codes_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_mail_sequence_recipient_codes" add constraint "shop_mail_sequence_recipient_codes_sequence_id_foreign" foreign key ("sequence_id") references "shop_mail_sequences" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shop_mail_sequence_recipient_codes" add constraint "shop_mail_sequence_recipient_codes_discount_code_id_foreign" foreign key ("discount_code_id") references "shop_discount_codes" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_mail_sequence_recipient_codes" cascade;`);
  }

}
