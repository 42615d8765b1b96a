import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../orm.ts';

/** Where the forks of an `ormIn` go: the transaction (a savepoint of `inSavepoint` is on its connection). */
export interface TransactionScope {
  em: EntityManager;
}

/**
 * An Orm whose every fork (`shopEm`, `tenantEm`) runs in the scope's transaction: the activities,
 * written to fork their own entity manager, run unchanged inside one transaction (the clearing's
 * one step, issue 26 item 1). Only `em.fork()` is there: nothing else of the Orm is reachable.
 */
export function ormIn(scope: TransactionScope): Orm {
  return { em: { fork: () => scope.em.fork({ keepTransactionContext: true }) } } as unknown as Orm;
}

/**
 * Runs `work` in a savepoint of the scope's transaction: forks made meanwhile run in it (the same
 * connection), and a failure rolls back only what `work` did. One at a time. Plain statements on
 * the transaction rather than a MikroORM nested transaction (a fork, a knex transaction and a flush
 * each): the clearing's step takes one per part (issue 26 item 1, the worker's CPU per clearing).
 */
export async function inSavepoint<T>(scope: TransactionScope, work: () => Promise<T>): Promise<T> {
  await scope.em.execute('savepoint one_part');
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await scope.em.execute('rollback to savepoint one_part');
    await scope.em.execute('release savepoint one_part');
    throw error;
  }
  await scope.em.execute('release savepoint one_part');
  return result;
}
