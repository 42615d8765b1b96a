import { Migration } from '@mikro-orm/migrations';

/** Covering indexes of the shop reports (db/repositories/shop/reports.ts): sales by placed_at, payments by paid_at. */
export class Migration20261123022711_ShopReportIndexes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "shop_orders_report_placed_index" on "shop_orders" ("shop_id", "internal_status", "placed_at") include ("total", "paid");`);
    this.addSql(`create index "shop_orders_report_paid_index" on "shop_orders" ("shop_id", "paid_at") include ("internal_status", "total", "payment_method") where "paid";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "shop_orders_report_placed_index";`);
    this.addSql(`drop index "shop_orders_report_paid_index";`);
  }

}
