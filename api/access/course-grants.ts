import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Course } from '../../db/entities/index.ts';
import { CourseGrantEntry, MAX_BATCH_ENTRIES, checkBatch, entriesOf, referencedIds } from '../../domain/grant-entries.ts';
import { badRequest } from '../errors.ts';
import { platformOf } from '../plugins/api-key-auth.ts';
import { ErrorBody, ValidationErrorBody } from '../schemas.ts';
import { GrantCoursesBody, GrantQueuedReply, InvalidSubscriptionsReply } from './schemas.ts';

/**
 * `POST /api/courses/subscribe`: validates every entry first (shape, e-mail, level, a course of
 * this account); one invalid entry rejects the batch. Otherwise every grant is durably queued as
 * a workflow before the 200 reply.
 */
export const courseGrantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/courses/subscribe',
    {
      // The body schema documents the entries; they are validated one by one below, on the body as
      // sent, so that the reply can list the invalid ones untouched.
      validatorCompiler: () => (value) => ({ value }),
      schema: {
        tags: ['access'],
        security: [{ apiKey: [] }],
        body: GrantCoursesBody,
        response: { 200: GrantQueuedReply, 400: InvalidSubscriptionsReply.or(ValidationErrorBody), 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const platform = platformOf(request);
      const raw: unknown = request.body;
      const wrapped = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).subscriptions : undefined;
      if (typeof wrapped !== 'object' || wrapped === null) {
        throw badRequest('validation failed', { 'body.subscriptions': ['required: an entry object or an array of entries'] });
      }
      const entries = entriesOf(wrapped);
      if (entries.length === 0) throw badRequest('validation failed', { 'body.subscriptions': ['must not be empty'] });
      if (entries.length > MAX_BATCH_ENTRIES) {
        throw badRequest('validation failed', { 'body.subscriptions': [`at most ${MAX_BATCH_ENTRIES} entries per request`] });
      }

      const ids = referencedIds(entries, 'course_id');
      const known = ids.length ? await request.em.find(Course, { id: { $in: ids } }, { fields: ['id'] }) : [];
      const batch = checkBatch(entries, CourseGrantEntry, 'course_id', new Set(known.map((c) => c.id)));
      if (batch.invalid.length > 0) {
        return reply.code(400).send({ invalid_subscriptions: batch.invalid, errors: batch.problems });
      }

      const workflowIds = await app.workflows.grantCourses(platform.id, batch.valid);
      return { status: 'queued' as const, queued: workflowIds.length, workflow_ids: workflowIds };
    },
  );
};
