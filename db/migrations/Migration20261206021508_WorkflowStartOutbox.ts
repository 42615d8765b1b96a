import { Migration } from '@mikro-orm/migrations';

/**
 * The workflow-start outbox (issue 41 item 2): a write records the workflow starts it causes in its
 * own transaction; the api starts them after the commit and retries those Temporal refused.
 */
export class Migration20261206021508_WorkflowStartOutbox extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "pending_workflow_starts" ("id" bigserial primary key, "task_queue" text not null, "workflow_type" text not null, "workflow_id" text not null, "request" jsonb not null, "recorded_at" timestamptz not null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_error" text null);`);
    this.addSql(`create index "pending_workflow_starts_next_attempt_at_index" on "pending_workflow_starts" ("next_attempt_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pending_workflow_starts" cascade;`);
  }

}
