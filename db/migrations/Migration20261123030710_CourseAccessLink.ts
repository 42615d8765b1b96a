import { Migration } from '@mikro-orm/migrations';

export class Migration20261123030710_CourseAccessLink extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "shops" add column "course_platform_id" uuid null;`);
    this.addSql(`alter table "shops" add constraint "shops_course_platform_id_foreign" foreign key ("course_platform_id") references "platforms" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "shop_products" add column "course_access" jsonb not null default '[]';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "shops" drop constraint "shops_course_platform_id_foreign";`);

    this.addSql(`alter table "shop_products" drop column "course_access";`);

    this.addSql(`alter table "shops" drop column "course_platform_id";`);
  }

}
