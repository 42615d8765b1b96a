import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { shopOwned } from './shop-owned.ts';

/**
 * A newsletter consent of one address in one shop (DESIGN.md section 8, operator
 * `POST /admin/v1/shops/:shop_id/newsletter_subscribers`). `email` is stored trimmed and lower
 * case, unique per shop, so a second sign-up finds the first row instead of adding one. Read by
 * the newsletter automatic discount and the `newsletter_subscription` trigger of mail sequences.
 */
export const NewsletterSubscriber = defineEntity({
  name: 'NewsletterSubscriber',
  tableName: 'shop_newsletter_subscribers',
  uniques: [{ properties: ['shop', 'email'] }],
  ...shopOwned({
    email: p.string().length(254),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type INewsletterSubscriber = InferEntity<typeof NewsletterSubscriber>;
