/** `npm run db:migrate` applies pending migrations; `npm run db:migration:create` writes a new one. */
import { openOrm, migrate } from '../db/orm.ts';
import { resolveDatabaseUrl } from './stack/postgres.ts';

const command = process.argv[2] ?? 'up';
const { url, stop } = await resolveDatabaseUrl();
const orm = await openOrm({ databaseUrl: url });
try {
  if (command === 'up') {
    const applied = await migrate(orm);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  } else if (command === 'create') {
    await migrate(orm);
    const result = await orm.getMigrator().createMigration('db/migrations', false, false, process.argv[3]);
    console.log(result.fileName ? `created db/migrations/${result.fileName}; add it to db/migrations/index.ts` : 'no changes');
  } else {
    throw new Error(`unknown command ${command}`);
  }
} finally {
  await orm.close();
  await stop();
}
