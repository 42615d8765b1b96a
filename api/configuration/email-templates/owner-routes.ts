import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { platformOf } from '../../../db/repositories/access/platforms.ts';
import { normalizeEmail } from '../../../domain/shared/email.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { configurationKeyOf } from '../auth.ts';
import type { TemplateOwner } from './owners.ts';
import { SendTestBody, SendTestReply, type CourseTemplatePatch } from './schemas.ts';

export interface TemplateOwnerRouteOptions {
  /** Params of the prefix (none for the platform's templates, `course_id` for a course's). */
  params: z.ZodObject;
  /** Params with `slug` added. */
  slugParams: z.ZodObject;
  patchBody: z.ZodType<CourseTemplatePatch>;
  listItem: z.ZodType;
  details: z.ZodType;
  owner(request: FastifyRequest): Promise<TemplateOwner>;
  /** Names in the OpenAPI document: the operationId prefix, one template and the list (`a course's mail template`). */
  operation: { id: string; one: string; all: string };
}

const denied = { 401: ErrorBody, 403: ErrorBody };
const writeErrors = { ...denied, 404: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

/**
 * List, read, PATCH, restore and send_test of e-mail templates: one piece for the platform's
 * templates (`/email_templates`) and a course's (`/courses/:course_id/email_templates`).
 */
export const templateOwnerRoutes: FastifyPluginAsyncZod<TemplateOwnerRouteOptions> = async (app, options) => {
  const { params, slugParams, owner, operation } = options;
  const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug;

  app.get('', { config: { scope: 'read' }, schema: { operationId: `${operation.id}.list`, summary: `Lists ${operation.all}`, params, response: { 200: data(options.listItem.array()), ...denied, 404: ErrorBody } } }, async (request) => ({
    data: await (await owner(request)).list(),
  }));

  app.get('/:slug', { config: { scope: 'read' }, schema: { operationId: `${operation.id}.read`, summary: `Reads ${operation.one}`, params: slugParams, response: { 200: data(options.details), ...denied, 404: ErrorBody } } }, async (request) => ({
    data: await (await owner(request)).get(slugOf(request)),
  }));

  app.patch(
    '/:slug',
    { config: { scope: 'write_appearance' }, schema: { operationId: `${operation.id}.update`, summary: `Updates ${operation.one}`, params: slugParams, body: options.patchBody, response: { 200: data(options.details), ...writeErrors } } },
    async (request) => ({ data: await (await owner(request)).update(slugOf(request), request.body) }),
  );

  app.post(
    '/:slug/restore',
    {
      config: { scope: 'write_appearance' },
      schema: {
        operationId: `${operation.id}.restore`,
        summary: `Restores ${operation.one} to its default`,
        description: 'Removes the customized copy; the template reads as its default again. 404 when there is no copy.',
        params: slugParams,
        response: { 200: data(options.details), ...writeErrors },
      },
    },
    async (request) => ({ data: await (await owner(request)).restore(slugOf(request)) }),
  );

  app.post(
    '/:slug/send_test',
    {
      config: { scope: 'write_appearance' },
      schema: {
        operationId: `${operation.id}.send_test`,
        summary: `Sends a test of ${operation.one}`,
        description: "Queues the template as saved, with sample values, to the platform administrator's address; any other address is a 422.",
        params: slugParams,
        body: SendTestBody,
        response: { 202: data(SendTestReply), ...writeErrors },
      },
    },
    async (request, reply) => {
      const { platformId } = configurationKeyOf(request);
      const templates = await owner(request);
      const slug = slugOf(request);
      await templates.get(slug);
      const platform = await platformOf(request.em, platformId);
      const to = normalizeEmail(request.body.email);
      if (!platform.adminEmail || normalizeEmail(platform.adminEmail) !== to) {
        throw unprocessable({ email: ["test mails go only to the platform administrator's address"] });
      }
      await app.workflows.access.sendTestMail(request.em, { platformId, courseId: templates.courseId, slug, to, requestId: randomUUID() });
      return reply.code(202).send({ data: { status: 'queued' as const, to } });
    },
  );
};
