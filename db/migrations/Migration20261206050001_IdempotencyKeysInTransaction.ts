import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys kept in the transaction of the change they answer (issue 41 item 1): a row is
 * a kept reply, never a claim (a request runs for a key under an advisory lock its transaction
 * holds). Expand only, for a rolling deploy: `state` stays, defaulting to `done`, so an api of the
 * previous release replays the rows this one writes, and the rows it still claims `running` (no
 * status yet) are what this release overwrites. A later release can drop `state` and make
 * `status` and `body` not null once no api of the previous one runs.
 */
export class Migration20261206050001_IdempotencyKeysInTransaction extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "state" set default 'done';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "state" drop default;`);
  }

}
