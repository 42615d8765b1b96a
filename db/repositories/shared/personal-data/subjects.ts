import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The ids a person is known by to integrators (earlier webhooks carried them), found by e-mail
 * (lower case); an erasure keeps them to tell the integrators what it erased.
 */

/** The platform's participant with this e-mail, or null. */
export async function participantIdByEmail(em: EntityManager, platformId: string, email: string): Promise<string | null> {
  const [p]: { id: string }[] = await em.execute('select id from participants where platform_id = ? and lower(email) = ?', [platformId, email]);
  return p?.id ?? null;
}

/** The shop's orders under any of the two e-mails (the person's, or the marker an erasure left), oldest first. */
export function shopOrdersByEmails(em: EntityManager, shopId: string, emails: readonly [string, string]): Promise<{ id: number; ordinal_number: number }[]> {
  return em.execute('select id, ordinal_number from shop_orders where shop_id = ? and lower(email) in (?, ?) order by id', [shopId, ...emails]);
}

/** The shop's subscribers under any of the two e-mails, oldest first. */
export function shopSubscriberIdsByEmails(em: EntityManager, shopId: string, emails: readonly [string, string]): Promise<{ id: number }[]> {
  return em.execute('select id from shop_subscribers where shop_id = ? and lower(email) in (?, ?) order by id', [shopId, ...emails]);
}
