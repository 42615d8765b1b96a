import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { courseWithLessons, createAudiobook, createCourse, findCourse, updateCourse } from '../../db/repositories/access/catalogue.ts';
import { slugify } from '../../domain/shared/slug.ts';
import { HttpError, notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { usePlatform } from './platform-scope.ts';
import { AudiobookReply, CourseParams, CourseReply, CreateAudiobookBody, CreateCourseBody, PlatformParams, UpdateCourseBody, data } from './schemas.ts';

async function courseReply(em: EntityManager, courseId: string): Promise<z.infer<typeof CourseReply>> {
  const course = await courseWithLessons(em, courseId);
  return {
    id: course.id,
    slug: course.slug,
    title: course.title,
    active: course.active,
    sections: course.sections.getItems().map((s) => ({
      id: s.id,
      title: s.title,
      access_level: s.accessLevel,
      lessons: s.lessons.getItems().map((l) => ({ id: l.id, title: l.title })),
    })),
  };
}

/** Operator catalogue management: courses with their sections and lessons, and audiobooks. */
export const catalogueAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/courses',
    { schema: { operationId: 'admin.platforms.courses.create', summary: 'Creates a course', params: PlatformParams, body: CreateCourseBody, response: { 201: data(CourseReply), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    async (request, reply) => {
      const platform = await usePlatform(request.em, request.params.platform_id);
      const { title, slug = slugify(title), active, sections } = request.body;
      try {
        const courseId = await createCourse(request.em, platform.id, {
          title,
          slug,
          active,
          sections: sections.map((section) => ({ title: section.title, accessLevel: section.access_level, lessons: section.lessons })),
        });
        return reply.code(201).send({ data: await courseReply(request.em, courseId) });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, `a course with slug ${slug} exists`);
        throw error;
      }
    },
  );

  app.patch(
    '/platforms/:platform_id/courses/:course_id',
    { schema: { operationId: 'admin.platforms.courses.update', summary: 'Updates a course', params: CourseParams, body: UpdateCourseBody, response: { 200: data(CourseReply), 400: ValidationErrorBody, 404: ErrorBody } } },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      const course = await findCourse(request.em, request.params.course_id);
      if (!course) throw notFound('course');
      await updateCourse(request.em, course, request.body);
      return { data: await courseReply(request.em, course.id) };
    },
  );

  app.post(
    '/platforms/:platform_id/audiobooks',
    { schema: { operationId: 'admin.platforms.audiobooks.create', summary: 'Creates an audiobook', params: PlatformParams, body: CreateAudiobookBody, response: { 201: data(AudiobookReply), 400: ValidationErrorBody, 404: ErrorBody } } },
    async (request, reply) => {
      const platform = await usePlatform(request.em, request.params.platform_id);
      const audiobook = await createAudiobook(request.em, platform.id, request.body);
      return reply.code(201).send({ data: { id: audiobook.id, title: audiobook.title, active: audiobook.active } });
    },
  );
};
