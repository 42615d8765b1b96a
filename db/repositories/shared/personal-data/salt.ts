import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail } from '../../../../domain/shared/email.ts';

/**
 * The keyed hash that names a person in workflow ids and erasure rows instead of the e-mail:
 * HMAC-SHA256 of the lower-cased address with the installation's random salt (made by the
 * migration, never shown), hex. Without the salt the hash cannot be tried against a list of
 * addresses; with the same database the api and every worker compute the same one.
 */
export async function personalEmailHash(em: EntityManager, email: string): Promise<string> {
  return (await personalEmailHasher(em))(email);
}

/** The same hash for many addresses with one read of the salt (a batch of grants). */
export async function personalEmailHasher(em: EntityManager): Promise<(email: string) => string> {
  const [row]: { salt: string }[] = await em.execute('select salt from personal_data_salt order by id limit 1');
  if (!row) throw new Error('personal_data_salt has no row: run the migrations');
  const { salt } = row;
  return (email) => createHmac('sha256', salt).update(normalizeEmail(email)).digest('hex');
}
