import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { databaseAnswers } from '../../db/repositories/shared/health.ts';

const HealthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  postgres: z.boolean(),
  temporal: z.boolean(),
});

/** 200 only when both PostgreSQL and Temporal answer; 503 names the one that does not. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { operationId: 'public.health.check', summary: 'Checks that PostgreSQL and Temporal answer', response: { 200: HealthBody, 503: HealthBody } } },
    async (request, reply) => {
      const [postgres, temporal] = await Promise.all([
        databaseAnswers(request.em),
        app.temporal.connection
          .withDeadline(Date.now() + 2000, () => app.temporal.workflowService.getSystemInfo({}))
          .then(() => true, () => false),
      ]);
      const ok = postgres && temporal;
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', postgres, temporal });
    },
  );
};
