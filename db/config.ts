import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ValueHidingPostgreSqlDriver } from './driver-errors.ts';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';

export interface OrmOptions {
  databaseUrl: string;
  /** Connections kept by this process. */
  poolMax?: number;
  /** Logs statements (with `?` for their values, never the values themselves). */
  debug?: boolean;
}

/** Connections per process unless told (DATABASE_POOL_MAX's default too). */
export const DEFAULT_POOL_MAX = 10;

export function ormConfig({ databaseUrl, poolMax = DEFAULT_POOL_MAX, debug = false }: OrmOptions) {
  return defineConfig({
    clientUrl: databaseUrl,
    // Query errors and query logs without statement values (sealed secrets, e-mail addresses): db/driver-errors.ts.
    driver: ValueHidingPostgreSqlDriver,
    driverOptions: { compileSqlOnError: false },
    entities,
    extensions: [Migrator],
    forceUtcTimezone: true,
    // Every unit of work gets its own fork (RequestContext in the API, em.fork() in activities).
    allowGlobalContext: false,
    debug: debug ? ['query', 'info', 'discovery'] : false, // not 'query-params'
    pool: { min: 0, max: poolMax },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: 'db/migrations',
      pathTs: 'db/migrations',
      migrationsList,
      // No snapshot file: new migrations are diffed against a migrated database, so parallel
      // branches never fight over one generated JSON file.
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      emit: 'ts',
      silent: true,
    },
  });
}
