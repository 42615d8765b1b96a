import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 39, item 5: a subscription plan's own subscriber mail texts, one per plan and kind
 * (`PUT /admin/v1/shops/:shop_id/subscription_plans/:plan_id/emails/:kind`).
 */
export class Migration20261205006001_SubscriptionPlanEmails extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "shop_subscription_plan_emails" ("id" serial primary key, "shop_id" uuid not null, "plan_id" int not null, "kind" varchar(32) not null, "subject" varchar(255) not null, "content" text not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "shop_subscription_plan_emails" add constraint "shop_subscription_plan_emails_plan_id_kind_unique" unique ("plan_id", "kind");`);
    this.addSql(`alter table "shop_subscription_plan_emails" add constraint "shop_subscription_plan_emails_shop_id_foreign" foreign key ("shop_id") references "shops" ("id") on update cascade;`);
    this.addSql(`alter table "shop_subscription_plan_emails" add constraint "shop_subscription_plan_emails_plan_id_foreign" foreign key ("plan_id") references "shop_subscription_plans" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "shop_subscription_plan_emails" cascade;`);
  }

}
