import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markCourseViewed } from '../../db/repositories/access/enrolments.ts';
import { recordLessonCompletion } from '../../db/repositories/access/lesson-completions.ts';
import { HttpError } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { learnerInCourse, learnerInLesson } from './learner.ts';
import { usePlatform } from './platform-scope.ts';
import { CourseViewBody, CourseViewReply, LessonCompletionBody, LessonCompletionReply, PlatformParams, data } from './schemas.ts';

/**
 * The learner app's progress reports. `POST /platforms/:platform_id/lesson_completions` records a
 * completion once per participant and lesson, then starts the lesson's follow-up (course mails
 * sent after this lesson); a repeat answers the first one and sends nothing again. The first
 * completion also counts as a view of the course. `POST /platforms/:platform_id/course_views`
 * records that the participant opened the course: `viewed_at` is the first view, kept on repeats.
 */
export const lessonCompletionAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/lesson_completions',
    {
      schema: {
        operationId: 'admin.platforms.lesson_completions.record',
        summary: 'Records lesson completions',
        params: PlatformParams,
        body: LessonCompletionBody,
        response: { 201: data(LessonCompletionReply), 400: ValidationErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { em } = request;
      const platform = await usePlatform(em, request.params.platform_id);
      const { participant, lesson, courseId, enrolment } = await learnerInLesson(em, request.body.email, request.body.lesson_id);

      // Its effects are recorded with the completion (sent once committed, later when Temporal is down).
      const { completion, recorded } = await em.transactional(async (tx) => {
        const completion = await recordLessonCompletion(tx, { platformId: platform.id, participantId: participant.id, lessonId: lesson.id, courseId });
        await markCourseViewed(tx, enrolment.id);
        return { completion, recorded: await app.workflows.access.lessonCompleted(tx, { platformId: platform.id, courseId, participantId: participant.id, lessonId: lesson.id }) };
      });
      await app.workflows.startRecorded(recorded);
      return reply.code(201).send({
        data: { email: participant.email, lesson_id: lesson.id, course_id: courseId, completed_at: completion.completedAt.toISOString() },
      });
    },
  );

  app.post(
    '/platforms/:platform_id/course_views',
    {
      schema: {
        operationId: 'admin.platforms.course_views.record',
        summary: 'Records course views',
        params: PlatformParams,
        body: CourseViewBody,
        response: { 201: data(CourseViewReply), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { em } = request;
      await usePlatform(em, request.params.platform_id);
      const { participant, enrolment } = await learnerInCourse(em, request.body.email, request.body.course_id);
      const viewed = await markCourseViewed(em, enrolment.id);
      if (!viewed) throw new HttpError(409, 'the participant has no active access to this course');
      return reply.code(201).send({ data: { email: participant.email, course_id: request.body.course_id, viewed_at: viewed.viewedAt.toISOString() } });
    },
  );
};
