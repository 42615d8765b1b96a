import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40, item 6: the buyer's GA4 client id (from the storefront's `_ga` cookie), kept on the
 * order for the clearing's purchase event; null when the cart was given none.
 */
export class Migration20261205002001_OrderAnalyticsClientId extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "shop_orders" add column "analytics_client_id" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_orders" drop column "analytics_client_id";`);
  }

}
