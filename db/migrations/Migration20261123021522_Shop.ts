import { Migration } from '@mikro-orm/migrations';

export class Migration20261123021522_Shop extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shops" ("id" uuid not null, "subdomain" varchar(63) not null, "name" varchar(255) not null, "currency" varchar(3) not null default 'PLN', "admin_email" varchar(255) null, "api_enabled" boolean not null default true, "automatic_invoicing" boolean not null default false, "time_zone" varchar(64) not null default 'Europe/Warsaw', "next_ordinal_number" int not null default 1, "next_invoice_number" int not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "shops_pkey" primary key ("id"));`);
    this.addSql(`alter table "shops" add constraint "shops_subdomain_unique" unique ("subdomain");`);

    this.addSql(`create table "shop_senders" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "email" varchar(255) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_senders_shop_id_index" on "shop_senders" ("shop_id");`);

    this.addSql(`create table "shop_product_categories" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "parent_id" int null, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_product_categories_shop_id_index" on "shop_product_categories" ("shop_id");`);

    this.addSql(`create table "shop_payment_types" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "name_displayed" varchar(255) not null, "default_price" numeric(12,2) not null, "vat_rate" int not null default 23, "cash_on_delivery" boolean not null default false, "active" boolean not null default true, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_payment_types_shop_id_index" on "shop_payment_types" ("shop_id");`);

    this.addSql(`create table "shop_order_statuses" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "kind" varchar(255) not null, "visible" boolean not null default true, "position" int not null default 0, "send_email_on_status_change" boolean not null default false, "sender_id" int null, "bcc_email_address" varchar(255) null, "treat_order_as_handled" boolean not null default false, "automatically_set" jsonb null, "email" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_order_statuses_shop_id_index" on "shop_order_statuses" ("shop_id");`);

    this.addSql(`create table "shop_orders" ("id" serial primary key, "shop_id" uuid not null, "uuid" uuid not null, "ordinal_number" int not null, "internal_status" varchar(16) not null default 'placed', "order_status_id" int not null, "email" varchar(255) not null, "currency" varchar(3) not null, "products_cost" numeric(12,2) not null, "delivery_cost" numeric(12,2) not null, "payment_cost" numeric(12,2) not null, "gift_packing_cost" numeric(12,2) not null default '0.00', "total_discount" numeric(12,2) not null, "total" numeric(12,2) not null, "delivery_type_id" int null, "delivery_method" varchar(255) null, "delivery_vat_rate" int null, "payment_type_id" int null, "payment_method" varchar(255) null, "payment_vat_rate" int null, "cash_on_delivery" boolean not null default false, "discount_code" varchar(255) null, "discount_code_id" int null, "paid" boolean not null default false, "paid_at" timestamptz null, "cleared_at" timestamptz null, "invoice_number" varchar(255) null, "transaction_id" varchar(255) null, "ref" varchar(255) null, "subscriber_identifier" varchar(255) null, "comment" text not null default '', "delivery_point_code" varchar(255) null, "tracking_number" varchar(255) not null default '', "tracking_url" varchar(255) not null default '', "delivery_address" jsonb null, "invoice_address" jsonb null, "invoice_recipient_name" varchar(255) not null default '', "placed_ip" varchar(45) null, "order_attributes" jsonb not null, "notes" jsonb not null, "newsletter" boolean not null default false, "placed_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_orders_shop_id_placed_at_index" on "shop_orders" ("shop_id", "placed_at");`);
    this.addSql(`create index "shop_orders_shop_id_email_index" on "shop_orders" ("shop_id", "email");`);
    this.addSql(`alter table "shop_orders" add constraint "shop_orders_shop_id_ordinal_number_unique" unique ("shop_id", "ordinal_number");`);
    this.addSql(`alter table "shop_orders" add constraint "shop_orders_uuid_unique" unique ("uuid");`);

    this.addSql(`create table "shop_order_items" ("id" serial primary key, "shop_id" uuid not null, "order_id" int not null, "product_id" int null, "name" varchar(255) not null, "sku" varchar(255) not null default '', "quantity" int not null, "unit_price" numeric(12,2) not null, "vat_rate" int not null, "price" numeric(12,2) not null, "discount" numeric(12,2) not null, "final_price" numeric(12,2) not null, "electronic" boolean not null default false, "subscriber_identifiers" text[] not null default '{}', "ref" varchar(255) null);`);
    this.addSql(`create index "shop_order_items_order_id_index" on "shop_order_items" ("order_id");`);
    this.addSql(`create index "shop_order_items_shop_id_product_id_index" on "shop_order_items" ("shop_id", "product_id");`);
    this.addSql(`create index "shop_order_items_shop_id_sku_index" on "shop_order_items" ("shop_id", "sku");`);

    this.addSql(`create table "shop_delivery_types" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "name_displayed" varchar(255) not null, "default_price" numeric(12,2) not null, "vat_rate" int not null default 23, "active" boolean not null default true, "domestic" boolean not null default true, "created_at" timestamptz not null);`);
    this.addSql(`create index "shop_delivery_types_shop_id_index" on "shop_delivery_types" ("shop_id");`);

    this.addSql(`create table "shop_api_keys" ("id" uuid not null, "shop_id" uuid not null, "name" varchar(255) not null, "prefix" varchar(16) not null, "key_hash" varchar(64) not null, "scopes" text[] not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "shop_api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "shop_api_keys" add constraint "shop_api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "shop_api_keys_shop_id_index" on "shop_api_keys" ("shop_id");`);

    this.addSql(`create table "shop_files" ("id" uuid not null, "shop_id" uuid not null, "storage_key" varchar(255) not null, "filename" varchar(255) not null, "content_type" varchar(64) not null, "byte_size" bigint not null, "created_at" timestamptz not null, constraint "shop_files_pkey" primary key ("id"));`);
    this.addSql(`create index "shop_files_shop_id_index" on "shop_files" ("shop_id");`);

    this.addSql(`create table "shop_products" ("id" serial primary key, "shop_id" uuid not null, "name" varchar(255) not null, "sku" varchar(255) not null default '', "price" numeric(12,2) not null, "vat_rate" int not null default 23, "active" boolean not null default true, "electronic" boolean not null default false, "distribution" varchar(16) not null default 'normal', "description" text not null default '', "description_for_cart" text not null default '', "ean" varchar(13) null, "producer" varchar(255) not null default '', "invoice_item_name" varchar(255) not null default '', "pkwiu" varchar(255) null, "product_link" text not null default '', "gtu_code" varchar(6) null, "regular_price_displayed" varchar(255) not null default '', "allow_price_change" boolean not null default false, "minimal_price" numeric(12,2) null, "allow_zero_minimal_price" boolean not null default false, "delivery_type_ids" int[] not null default '{}', "payment_type_ids" int[] not null default '{}', "product_category_ids" int[] not null default '{}', "feed_category_id" int null, "cart_quantity_limit" int null, "lump_code" varchar(8) not null default '', "photo_id" uuid null, "hide_in_xmls" boolean not null default false, "no_invoice" boolean not null default false, "hide_invoice_address_fields" boolean not null default false, "payment_return_url" text null, "hidden" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_products_shop_id_created_at_index" on "shop_products" ("shop_id", "created_at");`);
    this.addSql(`create index "shop_products_category_ids_gin" on "shop_products" using gin ("product_category_ids");`);

    this.addSql(`create table "shop_electronic_contents" ("id" serial primary key, "shop_id" uuid not null, "product_id" int not null, "file_id" uuid not null, "kind" varchar(16) not null default 'normal', "content_title" varchar(255) null, "days_to_expire" int not null, "usages_to_expire" int not null, "watermark" varchar(128) not null default '', "watermark_interval" int not null default 1, "description" text not null default '', "distribute_via_shop_cas" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "shop_electronic_contents_product_id_index" on "shop_electronic_contents" ("product_id");`);

    this.addSql(`alter table "shop_senders" add constraint "shop_senders_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_product_categories" add constraint "shop_product_categories_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_payment_types" add constraint "shop_payment_types_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_order_statuses" add constraint "shop_order_statuses_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_orders" add constraint "shop_orders_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_orders" add constraint "shop_orders_order_status_id_foreign" foreign key ("order_status_id") references "shop_order_statuses" ("id") on update cascade;`);

    this.addSql(`alter table "shop_order_items" add constraint "shop_order_items_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_order_items" add constraint "shop_order_items_order_id_foreign" foreign key ("order_id") references "shop_orders" ("id") on update cascade;`);

    this.addSql(`alter table "shop_delivery_types" add constraint "shop_delivery_types_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_api_keys" add constraint "shop_api_keys_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_files" add constraint "shop_files_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);

    this.addSql(`alter table "shop_products" add constraint "shop_products_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_products" add constraint "shop_products_photo_id_foreign" foreign key ("photo_id") references "shop_files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_electronic_contents" add constraint "shop_electronic_contents_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_electronic_contents" add constraint "shop_electronic_contents_product_id_foreign" foreign key ("product_id") references "shop_products" ("id") on update cascade;`);
    this.addSql(`alter table "shop_electronic_contents" add constraint "shop_electronic_contents_file_id_foreign" foreign key ("file_id") references "shop_files" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shop_senders" drop constraint "shop_senders_shop_id_foreign";`);

    this.addSql(`alter table "shop_product_categories" drop constraint "shop_product_categories_shop_id_foreign";`);

    this.addSql(`alter table "shop_payment_types" drop constraint "shop_payment_types_shop_id_foreign";`);

    this.addSql(`alter table "shop_order_statuses" drop constraint "shop_order_statuses_shop_id_foreign";`);

    this.addSql(`alter table "shop_orders" drop constraint "shop_orders_shop_id_foreign";`);

    this.addSql(`alter table "shop_order_items" drop constraint "shop_order_items_shop_id_foreign";`);

    this.addSql(`alter table "shop_delivery_types" drop constraint "shop_delivery_types_shop_id_foreign";`);

    this.addSql(`alter table "shop_api_keys" drop constraint "shop_api_keys_shop_id_foreign";`);

    this.addSql(`alter table "shop_files" drop constraint "shop_files_shop_id_foreign";`);

    this.addSql(`alter table "shop_products" drop constraint "shop_products_shop_id_foreign";`);

    this.addSql(`alter table "shop_electronic_contents" drop constraint "shop_electronic_contents_shop_id_foreign";`);

    this.addSql(`alter table "shop_orders" drop constraint "shop_orders_order_status_id_foreign";`);

    this.addSql(`alter table "shop_order_items" drop constraint "shop_order_items_order_id_foreign";`);

    this.addSql(`alter table "shop_products" drop constraint "shop_products_photo_id_foreign";`);

    this.addSql(`alter table "shop_electronic_contents" drop constraint "shop_electronic_contents_file_id_foreign";`);

    this.addSql(`alter table "shop_electronic_contents" drop constraint "shop_electronic_contents_product_id_foreign";`);

    this.addSql(`drop table if exists "shops" cascade;`);

    this.addSql(`drop table if exists "shop_senders" cascade;`);

    this.addSql(`drop table if exists "shop_product_categories" cascade;`);

    this.addSql(`drop table if exists "shop_payment_types" cascade;`);

    this.addSql(`drop table if exists "shop_order_statuses" cascade;`);

    this.addSql(`drop table if exists "shop_orders" cascade;`);

    this.addSql(`drop table if exists "shop_order_items" cascade;`);

    this.addSql(`drop table if exists "shop_delivery_types" cascade;`);

    this.addSql(`drop table if exists "shop_api_keys" cascade;`);

    this.addSql(`drop table if exists "shop_files" cascade;`);

    this.addSql(`drop table if exists "shop_products" cascade;`);

    this.addSql(`drop table if exists "shop_electronic_contents" cascade;`);
  }

}
