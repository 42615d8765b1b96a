import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys kept in the transaction of the change they answer (issue 41 item 1): a row is
 * a kept reply, never a claim, so `state` goes (a request runs for a key under an advisory lock
 * its transaction holds). Rows of requests still `running` under the old claim are dropped: their
 * retries run again, as a lapsed lease let them.
 */
export class Migration20261206050001_IdempotencyKeysInTransaction extends Migration {

  override async up(): Promise<void> {
    this.addSql(`delete from "idempotency_keys" where "state" <> 'done' or "status" is null or "body" is null;`);
    this.addSql(`alter table "idempotency_keys" drop column "state", alter column "status" set not null, alter column "body" set not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" add column "state" varchar(8) not null default 'done', alter column "status" drop not null, alter column "body" drop not null;`);
    this.addSql(`alter table "idempotency_keys" alter column "state" drop default;`);
  }

}
