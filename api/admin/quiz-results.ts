import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordQuizResult } from '../../db/repositories/access/quiz-results.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { learnerInLesson } from './learner.ts';
import { usePlatform } from './platform-scope.ts';
import { PlatformParams, data } from './schemas.ts';

export const QuizResultBody = z.strictObject({
  email: z.string().min(1).max(254),
  lesson_id: z.uuid().describe('the lesson that holds the quiz'),
  quiz_id: z.string().trim().min(1).max(255).optional().describe('the quiz within the lesson; defaults to lesson_id'),
  score: z.number().min(0).max(1_000_000).describe("the learner app's score (e.g. a percentage)"),
  passed: z.boolean(),
});
const QuizResultReply = z.object({
  id: z.uuid(),
  email: z.string(),
  course_id: z.uuid(),
  lesson_id: z.uuid(),
  quiz_id: z.string(),
  score: z.number(),
  passed: z.boolean(),
  recorded_at: z.iso.datetime(),
});

/**
 * `POST /platforms/:platform_id/quiz_results` (addition to DESIGN.md section 5): records a quiz
 * result as the learner app would report it; a passed one fires `quiz_passed`. Each request is one
 * result (a learner may pass a quiz again).
 */
export const quizResultAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/quiz_results',
    {
      schema: {
        operationId: 'admin.platforms.quiz_results.record',
        summary: 'Records quiz results',
        description: 'Records a quiz result; `passed: true` fires the `quiz_passed` event to subscribed webhooks. 404 for an unknown participant or lesson, 409 without active access to the course, 403 for a lesson in a section above the participant\'s access level.',
        params: PlatformParams,
        body: QuizResultBody,
        response: { 201: data(QuizResultReply), 400: ValidationErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { em } = request;
      const platform = await usePlatform(em, request.params.platform_id);
      const { participant, lesson, courseId } = await learnerInLesson(em, request.body.email, request.body.lesson_id);

      const { score, passed } = request.body;
      // Its effects are recorded with the result (sent once committed, later when Temporal is down).
      const { result, recorded } = await em.transactional(async (tx) => {
        const result = await recordQuizResult(tx, { platform: platform.id, participant, course: courseId, lesson, quizId: request.body.quiz_id ?? lesson.id, score, passed });
        return { result, recorded: await app.workflows.access.quizResultRecorded(tx, { platformId: platform.id, resultId: result.id }) };
      });
      await app.workflows.startRecorded(recorded);
      return reply.code(201).send({
        data: { id: result.id, email: participant.email, course_id: courseId, lesson_id: lesson.id, quiz_id: result.quizId, score, passed, recorded_at: result.recordedAt.toISOString() },
      });
    },
  );
};
