import type { EntityManager } from '@mikro-orm/postgresql';
import { SHOP_FILTER } from '../../tenant.ts';
import type { PooledClient } from './prepared.ts';
import { statementsOn, withPreparedStatements, type Sql } from './pooled-transaction.ts';

/** A transaction and its savepoint state: the forks of `shopEmIn` run in it. */
export interface TransactionScope {
  em: EntityManager;
  /** `inSavepoint`'s last savepoint, which succeeded: not released yet (the next one or the commit does). */
  savepointOpen?: boolean;
  /** A part is running in `inSavepoint`'s savepoint (its one name does not nest). */
  inPart?: boolean;
  /** The transaction's plain statements, prepared (`shopEmIn`). */
  statements?: Sql;
}

/**
 * An entity manager scoped to the shop, forked in the scope's transaction (a savepoint of
 * `inSavepoint` is on its connection): what an activity group's `ActivityDb.shopEm` gives inside
 * the clearing's one step (issue 26 item 1), where `shopEm` forks a fresh one of the Orm. Its
 * plain statements (`execute(sql, params)`, the most of a clearing's) go to the transaction's
 * connection as prepared statements (pooled-transaction.ts), not through MikroORM's and knex's
 * query path; its entity reads and writes go through MikroORM as before, on the same connection.
 */
export function shopEmIn(scope: TransactionScope, shopId: string): EntityManager {
  const em = scope.em.fork({ keepTransactionContext: true });
  em.setFilterParams(SHOP_FILTER, { shopId });
  const prepared = statementsIn(scope);
  return withPreparedStatements(em, () => prepared);
}

/** The scope's transaction connection (knex's transaction client answers it) as prepared statements, once per scope. */
function statementsIn(scope: TransactionScope): Sql {
  scope.statements ??= {
    async execute(sql: string, params: readonly unknown[] = []) {
      const trx = scope.em.getTransactionContext<{ client: PooledClient; isCompleted(): boolean }>();
      // Over (committed or rolled back): its connection is back in the pool, maybe in another's transaction.
      if (!trx || trx.isCompleted()) throw new Error('shopEmIn: the scope is not in a transaction (any more)');
      const connection = await trx.client.acquireConnection();
      return statementsOn(connection).execute(sql, params as unknown[]);
    },
  } as Sql;
  return scope.statements;
}

/**
 * Runs `work` in a savepoint of the scope's transaction: forks made meanwhile run in it (the same
 * connection), and a failure rolls back only what `work` did. One at a time. Plain statements on
 * the transaction rather than a MikroORM nested transaction (a fork, a knex transaction and a flush
 * each), and a savepoint that succeeded is released by the next one's statement (or the commit):
 * the clearing's step takes one per part (issue 26 item 1, the worker's CPU per clearing).
 * Not nested: the savepoint has one name, so an inner one would release the outer (refused).
 */
export async function inSavepoint<T>(scope: TransactionScope, work: () => Promise<T>): Promise<T> {
  if (scope.inPart) throw new Error('inSavepoint does not nest: one part at a time');
  scope.inPart = true;
  try {
    return await inOnePart(scope, work);
  } finally {
    scope.inPart = false;
  }
}

async function inOnePart<T>(scope: TransactionScope, work: () => Promise<T>): Promise<T> {
  await scope.em.execute(scope.savepointOpen ? 'release savepoint one_part; savepoint one_part' : 'savepoint one_part');
  scope.savepointOpen = true;
  let result: T;
  try {
    result = await work();
  } catch (error) {
    scope.savepointOpen = false;
    await scope.em.execute('rollback to savepoint one_part; release savepoint one_part');
    throw error;
  }
  return result;
}
