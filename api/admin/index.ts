import type { FastifyPluginAsync } from 'fastify';
import { operatorAuth } from './auth.ts';
import { catalogueAdminRoutes } from './courses.ts';
import { participantAdminRoutes } from './participants.ts';
import { platformRoutes } from './platforms.ts';

/** The operator API (`/admin/v1`, DESIGN.md section 5): the panel's side, bearer-token protected. */
export const adminRoutes: FastifyPluginAsync<{ adminToken: string }> = async (app, { adminToken }) => {
  await app.register(operatorAuth, { adminToken });
  await app.register(platformRoutes);
  await app.register(catalogueAdminRoutes);
  await app.register(participantAdminRoutes);
};
