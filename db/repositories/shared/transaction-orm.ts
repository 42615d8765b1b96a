import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../orm.ts';

/** Where the forks of an `ormIn` go: the transaction, or the savepoint inside it that runs now. */
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
 * Runs `work` in a savepoint of the scope's transaction (a MikroORM nested transaction): forks
 * made meanwhile run in it, and a failure rolls back only what `work` did. One at a time.
 */
export async function inSavepoint<T>(scope: TransactionScope, work: () => Promise<T>): Promise<T> {
  const outer = scope.em;
  return outer.transactional(async (savepoint) => {
    scope.em = savepoint as EntityManager;
    try {
      return await work();
    } finally {
      scope.em = outer;
    }
  });
}
