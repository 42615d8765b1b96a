import { Migration } from '@mikro-orm/migrations';

/**
 * The person of each grant or revoke command (issue 41 item 3): the api writes the address and
 * name here, under the command's sequence number, instead of into the workflow input, so
 * Temporal's histories hold no address for new runs. The activity step reads them by
 * (platform_id, seq). Rows are kept a few days for the step's retries and deleted by the hourly
 * cleanup (activities/shared/idempotency-key-cleanup.ts); a person's erasure deletes theirs.
 */
export class Migration20261206060001_AccessCommandPeople extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "access_command_people" (
      "seq" bigint not null,
      "platform_id" uuid not null,
      "email" text not null,
      "name" text null,
      "created_at" timestamptz not null default now(),
      constraint "access_command_people_pkey" primary key ("seq"));`);
    this.addSql(`create index "access_command_people_person_index" on "access_command_people" ("platform_id", lower("email"));`);
    this.addSql(`create index "access_command_people_created_at_index" on "access_command_people" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "access_command_people";`);
  }

}
