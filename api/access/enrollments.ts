import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activeEnrolmentsByEmail } from '../../db/repositories/access/enrolments.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { platformOf } from './api-key-auth.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { EnrollmentsQuery, EnrollmentsReply } from './schemas.ts';

/**
 * `GET /api/users/enrollments?email=`: the participant's active enrolments in active courses of
 * this account. The e-mail compares without letter case; unknown or empty (`email=`) gives an empty list,
 * a missing `email` parameter answers 400 (a missing required parameter).
 */
export const enrollmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/users/enrollments',
    { schema: { operationId: 'access.users.enrollments.list', summary: 'Lists a user\'s enrollments', querystring: EnrollmentsQuery, response: { 200: EnrollmentsReply, 400: ValidationErrorBody, 401: ErrorBody } } },
    async (request) => {
      const platformId = platformOf(request).id;
      const { email } = request.query;
      const normalized = normalizeEmail(email);
      const rows = normalized ? await activeEnrolmentsByEmail(request.em, platformId, normalized) : [];
      return {
        email,
        courses: rows.map((r) => ({
          id: r.id,
          title: r.title,
          started_at: new Date(r.started_at).toISOString(),
          viewed_at: r.viewed_at ? new Date(r.viewed_at).toISOString() : null,
        })),
      };
    },
  );
};
