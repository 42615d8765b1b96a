import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordLessonCompletion } from '../../db/repositories/access/lesson-completions.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { learnerInLesson } from './learner.ts';
import { usePlatform } from './platform-scope.ts';
import { LessonCompletionBody, LessonCompletionReply, PlatformParams, data } from './schemas.ts';

/**
 * `POST /platforms/:platform_id/lesson_completions`: records a participant's progress as the
 * learner app would, once per participant and lesson, then starts the lesson's follow-up (course
 * mails sent after this lesson). A repeated completion answers the first one and sends nothing again.
 */
export const lessonCompletionAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/lesson_completions',
    {
      schema: {
        tags: ['operator'],
        params: PlatformParams,
        body: LessonCompletionBody,
        response: { 201: data(LessonCompletionReply), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { em } = request;
      const platform = await usePlatform(em, request.params.platform_id);
      const { participant, lesson, courseId } = await learnerInLesson(em, request.body.email, request.body.lesson_id);

      const completion = await recordLessonCompletion(em, { platformId: platform.id, participantId: participant.id, lessonId: lesson.id, courseId });
      await app.workflows.lessonCompleted({ platformId: platform.id, courseId, participantId: participant.id, lessonId: lesson.id });
      return reply.code(201).send({
        data: { email: participant.email, lesson_id: lesson.id, course_id: courseId, completed_at: completion.completedAt.toISOString() },
      });
    },
  );
};
