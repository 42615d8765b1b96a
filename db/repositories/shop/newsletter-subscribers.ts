import type { EntityManager } from '@mikro-orm/postgresql';
import { NewsletterSubscriber, type INewsletterSubscriber } from '../../entities/shop/index.ts';

/**
 * Signs `email` (already normalised) up for the shop's newsletter. One statement that either
 * inserts or finds the existing row, so two sign-ups at once never make two rows; `created` tells
 * the caller which happened.
 */
export async function signUpForNewsletter(em: EntityManager, shopId: string, email: string): Promise<{ subscriber: INewsletterSubscriber; created: boolean }> {
  const inserted = await em.execute<{ id: number }[]>(
    'insert into shop_newsletter_subscribers (shop_id, email, created_at) values (?, ?, now()) on conflict (shop_id, email) do nothing returning id',
    [shopId, email],
  );
  const subscriber = await em.findOneOrFail(NewsletterSubscriber, { shop: shopId, email });
  return { subscriber, created: inserted.length > 0 };
}
