import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044918_MailClaim extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "mail_log" add column "claimed_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "mail_log" drop column "claimed_at";`);
  }

}
