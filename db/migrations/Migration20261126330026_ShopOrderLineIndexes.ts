import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26, item 4: the order list's product and SKU filters read the matching order ids from the
 * line index alone (index-only scans) instead of fetching each matching line from the table; the
 * old two-column indexes are their prefixes and go.
 */
export class Migration20261126330026_ShopOrderLineIndexes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "shop_order_items_shop_id_product_id_order_id_index" on "shop_order_items" ("shop_id", "product_id", "order_id");`);
    this.addSql(`create index "shop_order_items_shop_id_sku_order_id_index" on "shop_order_items" ("shop_id", "sku", "order_id");`);
    this.addSql(`drop index "shop_order_items_shop_id_product_id_index";`);
    this.addSql(`drop index "shop_order_items_shop_id_sku_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "shop_order_items_shop_id_product_id_index" on "shop_order_items" ("shop_id", "product_id");`);
    this.addSql(`create index "shop_order_items_shop_id_sku_index" on "shop_order_items" ("shop_id", "sku");`);
    this.addSql(`drop index "shop_order_items_shop_id_product_id_order_id_index";`);
    this.addSql(`drop index "shop_order_items_shop_id_sku_order_id_index";`);
  }

}
