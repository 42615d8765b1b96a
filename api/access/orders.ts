import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { awaitsFulfilment, markOrderCancelled, registerOrder } from '../../db/repositories/access/orders.ts';
import { OrderInput, orderedCourses } from '../../domain/access/order-contents.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { platformOf } from './api-key-auth.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { knownItemIds } from '../../db/repositories/access/catalogue.ts';

const OrderIdReply = z.object({ id: z.uuid() });
const CancelledReply = z.object({ id: z.uuid(), status: z.literal('cancelled') });

/** `POST /api/orders` and `DELETE /api/orders/:id` (spec: Order rules and States and transitions). */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders',
    {
      schema: {
        operationId: 'access.orders.create',
        summary: 'Records an order and grants what it includes',
        description:
          '201 for a new `external_id`, 200 with the same id for a known one (the first registration wins; a repeat never changes the order). ' +
          'Access to the union of `course_ids` and `courses` is granted in the background, the order being its source.',
        body: z.object({ order: OrderInput }),
        response: { 200: OrderIdReply, 201: OrderIdReply, 400: ValidationErrorBody, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const platform = platformOf(request);
      const { order } = request.body;
      // A known external_id answers 200 with the stored order: a repeat never changes it. The
      // fulfilment is recorded with the order (sent once committed, later when Temporal is down);
      // also on a repeat while it awaits fulfilment (one-shot per order: the repeat joins the run).
      const { registered, created, recorded } = await request.em.transactional(async (tx) => {
        const { order: registered, created } = await registerOrder(tx, platform.id, order, async () => {
          const courses = orderedCourses(order.ordered_contents);
          const known = await knownItemIds(tx, platform.id, 'course', courses.map((c) => c.courseId));
          const unknown = courses.filter((c) => !known.has(c.courseId)).map((c) => c.courseId);
          if (unknown.length > 0) {
            throw badRequest('validation failed', { 'body.order.ordered_contents': unknown.map((id) => `course ${id} is not a course of this account`) });
          }
        });
        const fulfilment = { platformId: platform.id, orderId: registered.id, courses: orderedCourses(registered.ordered_contents), seq: Number(registered.seq) };
        return { registered, created, recorded: awaitsFulfilment(registered) ? await app.workflows.access.fulfilOrder(tx, fulfilment) : null };
      });
      await app.workflows.startRecorded(recorded);
      return reply.code(created ? 201 : 200).send({ id: registered.id });
    },
  );

  app.delete(
    '/api/orders/:id',
    {
      schema: {
        operationId: 'access.orders.cancel',
        summary: 'Cancels an order and revokes what it granted',
        description: 'Withdraws the access this order granted; a course another order or a direct grant also gives stays. 200 also when already cancelled.',
        params: z.object({ id: z.string() }),
        response: { 200: CancelledReply, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const platform = platformOf(request);
      const { id } = request.params;
      if (!z.uuid().safeParse(id).success) throw notFound('order');
      // The revocation is recorded with the cancellation (sent once committed, later when Temporal is down).
      const recorded = await request.em.transactional(async (tx) =>
        (await markOrderCancelled(tx, platform.id, id)) ? app.workflows.access.cancelOrder(tx, { platformId: platform.id, orderId: id }) : null,
      );
      if (!recorded) throw notFound('order');
      await app.workflows.startRecorded(recorded);
      return { id, status: 'cancelled' as const };
    },
  );
};
