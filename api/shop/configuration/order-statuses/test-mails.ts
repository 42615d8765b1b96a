import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendShopMailOnce } from '../../../../activities/shop/shop-mail-send.ts';
import type { IOrder, IOrderStatus } from '../../../../db/entities/shop/index.ts';
import { listOrderStatuses } from '../../../../db/repositories/shop/order-status-config.ts';
import { composeOrderStatusMail, orderByNumber } from '../../../../db/repositories/shop/status-mails.ts';
import { parseOrderNumber, shopMessageId, storedTemplate, type StatusMailTemplate } from '../../../../domain/shop/status-mail.ts';
import { unknownIds } from '../../../../domain/shop/product-rules.ts';
import { HttpError } from '../../../shared/errors.ts';
import { MailTransportError } from '../../../shared/mail-transports/transport.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../../shared/validation-errors.ts';
import { shopKeyOf } from '../../auth.ts';
import { downloadBaseOf } from '../../downloads/link.ts';
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
 * One test mail: the saved mail composed as a real status change would (sender, tags, delivery
 * block, download links of the order) but sent only to `to`, under a key of its own; the order is
 * only read (no effect, no status, no download use).
 */
async function sendTestMail(request: FastifyRequest, status: IOrderStatus, template: StatusMailTemplate, order: IOrder | null, to: string) {
  const { shopId } = shopKeyOf(request);
  const composed = await composeOrderStatusMail(request.em, status, template, order, downloadBaseOf(request));
  try {
    const key = `test/${randomUUID()}`;
    await sendShopMailOnce(request.em, request.server.mailEndpoints, new Date(), { shopId, key, kind: 'test_mail', messageId: shopMessageId(shopId, key), to, ...composed });
  } catch (error) {
    if (error instanceof MailTransportError) throw new HttpError(502, `the test mail could not be sent: ${error.message}`);
    throw error;
  }
  return composed;
}

const tested = (s: IOrderStatus) => ({ id: s.id, name: s.name, send_email_on_status_change: s.sendEmailOnStatusChange });

/** Test mails of status mails (rules 5 and 6); `write_storefront`. */
export const testMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['shop: configuration'];
  const config = { scope: 'write_storefront' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody, 502: ErrorBody };

  app.post(
    '/configuration/order_statuses/:id/test_email',
    {
      config,
      schema: {
        tags,
        description: 'Sends the saved mail of the status to `email` only. With `order_number` the tags and download links are that order\'s (opening a link uses up the customer\'s limit); without it the order tags are empty.',
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
      const { subject } = await sendTestMail(request, status, template!, order, to);
      return { data: { ...tested(status), to, subject, sent: true as const } };
    },
  );

  app.post(
    '/configuration/order_statuses/test_emails',
    {
      config,
      schema: {
        tags,
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
      const sent = [];
      const skipped = [];
      for (const status of chosen) {
        const template = storedTemplate(status.email);
        if (!template) {
          skipped.push({ ...tested(status), reason: 'no_email' as const });
          continue;
        }
        await sendTestMail(request, status, template, order, request.body.email.trim());
        sent.push(tested(status));
      }
      return { data: { sent, skipped } };
    },
  );
};
