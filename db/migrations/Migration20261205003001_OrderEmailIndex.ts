import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40, item 5: the participant view and the export read a person's files from their orders
 * by e-mail (compared without letter case); this index finds them without scanning the platform's
 * orders.
 */
export class Migration20261205003001_OrderEmailIndex extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "orders_platform_id_lower_email_index" on "orders" ("platform_id", lower("email"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "orders_platform_id_lower_email_index";`);
  }

}
