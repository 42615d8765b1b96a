import { Migration } from '@mikro-orm/migrations';

export class Migration20261123052714_SandboxTwin extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "platforms" add column "sandbox_of_id" uuid null;`);
    this.addSql(`alter table "platforms" add constraint "platforms_sandbox_of_id_foreign" foreign key ("sandbox_of_id") references "platforms" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "platforms" add constraint "platforms_sandbox_of_id_unique" unique ("sandbox_of_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "platforms" drop constraint "platforms_sandbox_of_id_foreign";`);

    this.addSql(`alter table "platforms" drop constraint "platforms_sandbox_of_id_unique";`);
    this.addSql(`alter table "platforms" drop column "sandbox_of_id";`);
  }

}
