import type { FastifyPluginAsync } from 'fastify';
import { apiKeyAuth } from '../plugins/api-key-auth.ts';
import { catalogueRoutes } from './catalogue.ts';
import { courseGrantRoutes } from './course-grants.ts';
import { enrollmentRoutes } from './enrollments.ts';

/** The access interface (`/api/...`): every route here requires the platform API key. */
export const accessRoutes: FastifyPluginAsync = async (app) => {
  await app.register(apiKeyAuth);
  await app.register(catalogueRoutes);
  await app.register(courseGrantRoutes);
  await app.register(enrollmentRoutes);
};
