import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { signUpWithSequences } from '../../shop/shared/newsletter-sign-up.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const NewsletterSignUpBody = z.object({ email: z.string().trim().toLowerCase().pipe(z.email().max(254)).describe('stored trimmed and lower case') });
const NewsletterSubscriberReply = z
  .object({ id: z.number(), email: z.string(), created_at: z.iso.datetime() })
  .meta({ id: 'OperatorNewsletterSubscriber' });

/**
 * Newsletter consent (DESIGN.md section 8): read by the newsletter automatic discount and the
 * `newsletter_subscription` trigger of mail sequences. The address is stored lower case, once per
 * shop: a new sign-up answers 201, a repeated one 200 with the first sign-up's row.
 */
export const shopNewsletterAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post(
    '/shops/:shop_id/newsletter_subscribers',
    {
      schema: {
        operationId: 'admin.shops.newsletter_subscribers.create',
        summary: 'Adds a newsletter subscriber',
        description: 'Signs an address up for the shop newsletter: 201 when new, 200 (same row, nothing added) when it already signed up. Starts the mail sequences with the `newsletter_subscription` trigger (recorded with the sign-up: they start when Temporal is reachable).',
        params: ShopParams,
        body: NewsletterSignUpBody,
        response: { 200: data(NewsletterSubscriberReply), 201: data(NewsletterSubscriberReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { subscriber, created } = await signUpWithSequences(app.workflows, request.em, shop.id, request.body.email);
      return reply.code(created ? 201 : 200).send({ data: { id: subscriber.id, email: subscriber.email, created_at: subscriber.createdAt.toISOString() } });
    },
  );
};
