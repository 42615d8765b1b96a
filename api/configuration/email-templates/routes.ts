import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ICourse } from '../../../db/entities/index.ts';
import { findCourseByIdOrSlug } from '../../../db/repositories/access/catalogue.ts';
import { platformOf } from '../../../db/repositories/access/platforms.ts';
import { platformAppUrl } from '../../../domain/access/platform-url.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { configurationKeyOf } from '../auth.ts';
import {
  CourseParams,
  CourseSlugParams,
  CourseTemplateDetails,
  CourseTemplateListItem,
  CourseTemplatePatch,
  CreateCourseTemplateBody,
  CustomInvitationBody,
  CustomInvitationReply,
  SlugParams,
  TemplateDetails,
  TemplateListItem,
  TemplatePatch,
} from './schemas.ts';
import { templateOwnerRoutes } from './owner-routes.ts';
import { courseTemplates, platformTemplates } from './owners.ts';

/** A course of the key's platform by id or slug (spec: `:course_id` is a course id or slug). */
async function findCourse(em: EntityManager, idOrSlug: string): Promise<ICourse> {
  const byId = z.uuid().safeParse(idOrSlug).success;
  const course = await findCourseByIdOrSlug(em, byId ? { id: idOrSlug.toLowerCase() } : { slug: idOrSlug });
  if (!course) throw notFound('course');
  return course;
}

const writeErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

/** Platform and course e-mail templates. */
export const emailTemplateRoutes: FastifyPluginAsyncZod<{ platformUrlTemplate: string }> = async (app, { platformUrlTemplate }) => {
  const context = async (request: FastifyRequest) => {
    const { platformId } = configurationKeyOf(request);
    const platform = await platformOf(request.em, platformId);
    return { platformId, host: new URL(platformAppUrl(platformUrlTemplate, platform.subdomain)).host };
  };
  const forCourse = async (request: FastifyRequest) => {
    const { platformId, host } = await context(request);
    const course = await findCourse(request.em, (request.params as { course_id: string }).course_id);
    // The rollout is recorded in the template change's transaction and sent once committed;
    // Temporal down, it starts when Temporal is back.
    return courseTemplates(request.em, platformId, course, host, {
      record: (tx, change) => app.workflows.access.courseMailRollout(tx, { platformId, courseId: course.id, ...change, revision: randomUUID() }),
      start: (recorded) => app.workflows.startRecorded(recorded),
    });
  };

  await app.register(templateOwnerRoutes, {
    prefix: '/email_templates',
    params: z.object({}),
    slugParams: SlugParams,
    patchBody: TemplatePatch,
    listItem: TemplateListItem,
    details: TemplateDetails,
    operation: { id: 'configuration.email_templates', one: 'a platform mail template', all: "the platform's mail templates" },
    owner: async (request) => {
      const { platformId, host } = await context(request);
      return platformTemplates(request.em, platformId, host);
    },
  });

  await app.register(templateOwnerRoutes, {
    prefix: '/courses/:course_id/email_templates',
    params: CourseParams,
    slugParams: CourseSlugParams,
    patchBody: CourseTemplatePatch,
    listItem: CourseTemplateListItem,
    details: CourseTemplateDetails,
    operation: { id: 'configuration.courses.email_templates', one: "a course's mail template", all: "a course's mail templates" },
    owner: forCourse,
  });

  app.post(
    '/courses/:course_id/email_templates',
    {
      config: { scope: 'write_appearance' },
      schema: {
        operationId: 'configuration.courses.email_templates.create',
        summary: 'Creates a course mail',
        description: 'Creates a course mail sent once a participant completes `send_after_lesson` (a lesson of this course), or `send_after` days after enrolment.',
        params: CourseParams,
        body: CreateCourseTemplateBody,
        response: { 201: data(CourseTemplateDetails), ...writeErrors },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await (await forCourse(request)).create(request.body) }),
  );

  app.patch(
    '/courses/:course_id/custom_invitation',
    {
      config: { scope: 'write_appearance' },
      schema: {
        operationId: 'configuration.courses.custom_invitation.update',
        summary: 'Turns a course\'s custom invitation on or off',
        description: "`{enabled: true}` gives the course its own course_invitation and course_reinvitation; `false` removes them and the platform's invitation applies again.",
        params: CourseParams,
        body: CustomInvitationBody,
        response: { 200: data(CustomInvitationReply), ...writeErrors },
      },
    },
    async (request) => ({ data: await (await forCourse(request)).setCustomInvitation(request.body.enabled) }),
  );
};
