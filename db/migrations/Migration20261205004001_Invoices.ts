import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 39, item 3: invoices as documents. The shop's seller block, the issued invoices and
 * corrections with the document their PDF prints, and a counter per shop, year and kind (numbers
 * from 1 each year, taken in the invoice's own transaction).
 */
export class Migration20261205004001_Invoices extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "shops" add column "invoice_seller" jsonb null;`);

    this.addSql(`create table "shop_invoices" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "kind" varchar(16) not null, "number" varchar(64) not null, "corrects_id" int null, "currency" varchar(3) not null, "total" numeric(12,2) not null, "issued_at" timestamptz not null, "document" jsonb not null);`);
    this.addSql(`alter table "shop_invoices" add constraint "shop_invoices_order_id_kind_unique" unique ("order_id", "kind");`);
    this.addSql(`alter table "shop_invoices" add constraint "shop_invoices_shop_id_number_unique" unique ("shop_id", "number");`);
    this.addSql(`alter table "shop_invoices" add constraint "shop_invoices_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_invoices" add constraint "shop_invoices_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade;`);

    this.addSql(`create table "shop_invoice_counters" ("shop_id" uuid not null, "year" int not null, "kind" varchar(16) not null, "last" int not null, constraint "shop_invoice_counters_pkey" primary key ("shop_id", "year", "kind"));`);
    this.addSql(`alter table "shop_invoice_counters" add constraint "shop_invoice_counters_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_invoice_counters" cascade;`);
    this.addSql(`drop table if exists "shop_invoices" cascade;`);
    this.addSql(`alter table "shops" drop column "invoice_seller";`);
  }

}
