import type { FastifyPluginAsync } from 'fastify';
import { operatorAuth } from './auth.ts';
import { configurationKeyAdminRoutes } from './configuration-keys.ts';
import { catalogueAdminRoutes } from './catalogue.ts';
import { lessonCompletionAdminRoutes } from './lesson-completions.ts';
import { participantAdminRoutes } from './participants.ts';
import { platformRoutes } from './platforms.ts';
import { quizResultAdminRoutes } from './quiz-results.ts';
import { sandboxAdminRoutes } from './sandbox.ts';
import { shopOrderAdminRoutes } from './shops/orders.ts';
import { shopDiscountPoolAdminRoutes } from './shops/discount-code-pools.ts';
import { shopAdminRoutes } from './shops/routes.ts';
import { shopEffectAdminRoutes } from './shops/effects.ts';
import { shopWebhookAdminRoutes } from './shops/webhooks.ts';
import { shopCoursePlatformAdminRoutes } from './shops/course-platform.ts';
import { shopPaymentGatewayAdminRoutes } from './shops/payment-gateway.ts';
import { shopNewsletterAdminRoutes } from './shops/newsletter-subscribers.ts';
import { shopEmailSequenceAdminRoutes } from './shops/email-sequences.ts';

/** The operator API (`/admin/v1`, DESIGN.md section 5): the panel's side, bearer-token protected. */
export const adminRoutes: FastifyPluginAsync<{ adminToken: string }> = async (app, { adminToken }) => {
  await app.register(operatorAuth, { adminToken });
  await app.register(platformRoutes);
  await app.register(sandboxAdminRoutes);
  await app.register(catalogueAdminRoutes);
  await app.register(participantAdminRoutes);
  await app.register(configurationKeyAdminRoutes);
  await app.register(lessonCompletionAdminRoutes);
  await app.register(quizResultAdminRoutes);
  await app.register(shopAdminRoutes);
  await app.register(shopEffectAdminRoutes);
  await app.register(shopWebhookAdminRoutes);
  await app.register(shopOrderAdminRoutes);
  await app.register(shopCoursePlatformAdminRoutes);
  await app.register(shopPaymentGatewayAdminRoutes);
  await app.register(shopDiscountPoolAdminRoutes);
  await app.register(shopNewsletterAdminRoutes);
  await app.register(shopEmailSequenceAdminRoutes);
};
