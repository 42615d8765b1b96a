import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IOrder, IOrderStatus } from '../../../../db/entities/shop/index.ts';
import { listOrderStatuses } from '../../../../db/repositories/shop/order-status-config.ts';
import { orderByNumber } from '../../../../db/repositories/shop/status-mails.ts';
import { parseOrderNumber, storedTemplate } from '../../../../domain/shop/status-mail.ts';
import type { StatusTestMailsInput } from '../../../../workflows/shop/status-test-mails.ts';
import { unknownIds } from '../../../../domain/shop/product-rules.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../../shared/validation-errors.ts';
import { shopKeyOf } from '../../auth.ts';
import { publicBaseOf } from '../../../shared/public-base.ts';
import { statusOr404 } from './lookup.ts';
import { OrderStatusParams, TestEmailBody, TestEmailReply, TestEmailsBody, TestEmailsReply } from './schemas.ts';

const Address = z.email();

/** The recipient and the order of a test (rules 5-6), every problem collected; nothing is sent yet. */
async function testTarget(request: FastifyRequest, body: { email: string; order_number?: string | number }, problems: FieldErrors): Promise<IOrder | null> {
  if (!Address.safeParse(body.email.trim()).success) problems.email = ['must be a valid e-mail address'];
  if (body.order_number === undefined) return null;
  const number = parseOrderNumber(body.order_number);
  const order = number === null ? null : await orderByNumber(request.em, number);
  if (!order) problems.order_number = ['is not an order of this shop (`<number>` or `#<number>`)'];
  return order;
}

/**
 * Starts the test mails of a checked request: one workflow (`shop/<s>/status-test-mails/<request>`)
 * sends each status's saved mail, composed as a real status change would, only to `to`.
 */
async function startTestMails(request: FastifyRequest, statusIds: number[], order: IOrder | null, to: string): Promise<void> {
  if (statusIds.length === 0) return;
  const { shopId } = shopKeyOf(request);
  const requestId = randomUUID();
  const input: StatusTestMailsInput = { shopId, requestId, statusIds, orderId: order?.id ?? null, to, downloadBase: publicBaseOf(request) };
  await request.server.workflows.shop.sendOrderStatusTestMails(request.em, input);
}

const tested = (s: IOrderStatus) => ({ id: s.id, name: s.name, send_email_on_status_change: s.sendEmailOnStatusChange });

/** Test mails of status mails (rules 5 and 6); `write_storefront`. */
export const testMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'write_storefront' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.post(
    '/configuration/order_statuses/:id/test_email',
    {
      config,
      schema: {
        operationId: 'shop.configuration.order_statuses.send_test_email',
        summary: 'Sends a test of an order status mail',
        description: 'Sends the saved mail of the status to `email` only. With `order_number` the tags and download links are that order\'s (opening a link uses up the customer\'s limit); without it the order tags are empty. 200 once the send is persisted; the mail goes out in the background.',
        params: OrderStatusParams,
        body: TestEmailBody,
        response: { 200: data(TestEmailReply), ...errors },
      },
    },
    async (request) => {
      const status = await statusOr404(request.em, request.params.id);
      const problems = fieldErrorMap();
      const order = await testTarget(request, request.body, problems);
      const template = storedTemplate(status.email);
      if (!template) problems.id = ['the status has no mail'];
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      const to = request.body.email.trim();
      await startTestMails(request, [status.id], order, to);
      return { data: { ...tested(status), to, sent: true as const } };
    },
  );

  app.post(
    '/configuration/order_statuses/test_emails',
    {
      config,
      schema: {
        operationId: 'shop.configuration.order_statuses.send_test_emails',
        summary: 'Sends tests of every order status mail',
        description: 'A test mail of every status in `ids` (all statuses when left out) that has a mail; the others are `skipped` with `reason: no_email`. Address, order number and ids are checked before anything is sent.',
        body: TestEmailsBody,
        response: { 200: data(TestEmailsReply), ...errors },
      },
    },
    async (request) => {
      const problems = fieldErrorMap();
      const order = await testTarget(request, request.body, problems);
      const [all] = await listOrderStatuses(request.em);
      const ids = request.body.ids && [...new Set(request.body.ids)];
      const missing = ids ? unknownIds(ids, new Set(all.map((s) => s.id))) : [];
      if (missing.length > 0) problems.ids = [`not order statuses of this shop: ${missing.join(', ')}`];
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      const chosen = ids ? all.filter((s) => ids.includes(s.id)) : all;
      const withMail = chosen.filter((s) => storedTemplate(s.email));
      await startTestMails(request, withMail.map((s) => s.id), order, request.body.email.trim());
      return {
        data: {
          sent: withMail.map(tested),
          skipped: chosen.filter((s) => !withMail.includes(s)).map((s) => ({ ...tested(s), reason: 'no_email' as const })),
        },
      };
    },
  );
};
