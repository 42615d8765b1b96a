import { Migration } from '@mikro-orm/migrations';

/** Issue 28: manual redeliveries of the shop's and the club's webhook deliveries are counted as the platform's are (each has its own workflow id). */
export class Migration20261126020001_ShopRedeliveries extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "shop_webhook_deliveries" add column "redeliveries" int not null default 0;`);
    this.addSql(`alter table "shop_club_webhook_deliveries" add column "redeliveries" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_webhook_deliveries" drop column "redeliveries";`);
    this.addSql(`alter table "shop_club_webhook_deliveries" drop column "redeliveries";`);
  }

}
