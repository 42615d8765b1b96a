import type { FastifyPluginAsync } from 'fastify';
import { accessRateLimits } from './rate-limits.ts';
import { apiKeyAuth } from './api-key-auth.ts';
import type { RateLimitSettings } from '../shared/rate-limits/store.ts';
import { catalogueRoutes } from './catalogue.ts';
import { accessCommandRoutes } from './access-commands.ts';
import { enrollmentRoutes } from './enrollments.ts';
import { orderRoutes } from './orders.ts';

/** The access interface (`/api/...`): every route here requires the platform API key. */
export const accessRoutes: FastifyPluginAsync<{ rateLimits: RateLimitSettings }> = async (app, { rateLimits }) => {
  await app.register(accessRateLimits, rateLimits);
  await app.register(apiKeyAuth);
  await app.register(catalogueRoutes);
  await app.register(accessCommandRoutes);
  await app.register(enrollmentRoutes);
  await app.register(orderRoutes);
};
