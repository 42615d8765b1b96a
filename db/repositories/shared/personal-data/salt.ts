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

/** The salt of each database (its driver): made once by the migration and never changed, so read once per process. */
const salts = new WeakMap<object, Promise<string>>();

function saltOf(em: EntityManager): Promise<string> {
  const driver = em.getDriver();
  let salt = salts.get(driver);
  if (!salt) {
    salt = em.execute<{ salt: string }[]>('select salt from personal_data_salt order by id limit 1').then(([row]) => {
      if (!row) throw new Error('personal_data_salt has no row: run the migrations');
      return row.salt;
    });
    salts.set(driver, salt);
    salt.catch(() => salts.delete(driver));
  }
  return salt;
}

/** The same hash for many addresses (a batch of grants). */
export async function personalEmailHasher(em: EntityManager): Promise<(email: string) => string> {
  const salt = await saltOf(em);
  return (email) => createHmac('sha256', salt).update(normalizeEmail(email)).digest('hex');
}
