/**
 * `npm run person-hash -- <email>` prints the keyed hash that names the person in workflow ids
 * (access commands, mail sequence runs, erasures), for a search in Temporal such as
 * `WorkflowId STARTS_WITH "platform/<p>/course/<c>/<hash>/"`. Reads the salt from DATABASE_URL's database.
 */
import { openOrm } from '../db/orm.ts';
import { personalEmailHash } from '../db/repositories/shared/personal-data/salt.ts';
import { resolveDatabaseUrl } from './stack/postgres.ts';

const email = process.argv[2];
if (!email) throw new Error('usage: npm run person-hash -- <email>');
const { url, stop } = await resolveDatabaseUrl();
const orm = await openOrm({ databaseUrl: url });
try {
  console.log(await personalEmailHash(orm.em.fork(), email));
} finally {
  await orm.close();
  await stop();
}
