import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { downloadCodeOfOrder, resetDownloadCodes, shopHasOrder } from '../../../db/repositories/shop/downloads.ts';
import { notFound } from '../../shared/errors.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { AS_SENT_422, fieldErrors, unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { downloadLink } from '../../../domain/shared/public-links.ts';
import { publicBaseOf } from '../../shared/public-base.ts';
import { OrderParams } from './schemas.ts';

/** The body is optional: a POST without one (and without a Content-Type) resets every code. */
const ResetBody = z.strictObject({ code_id: z.number().int().positive().max(2_147_483_647).optional() });

const ResetReply = z.object({
  order_id: z.number(),
  reset_codes: z.array(z.object({ id: z.number(), file_name: z.string(), link: z.string(), usages: z.number(), usages_to_expire: z.number() })),
});

/**
 * `POST /orders/:id/reset_download_limit` (spec: Orders): the order's download codes, or the one
 * `code_id`, start over (no uses, `usages_to_expire` and `days_to_expire` of the content as it is
 * now, counted from now) and are answered with their links. Codes whose file was deleted are left
 * out; naming one is a 422.
 */
export const orderDownloadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/orders/:id/reset_download_limit',
    {
      config: { scope: 'write_data' },
      schema: {
        operationId: 'shop.orders.reset_download_limit',
        summary: 'Resets an order\'s download limits',
        description: 'Resets the download limit of every download code of the order, or of `code_id` (optional JSON body `{code_id}`), and answers the codes with their links.',
        params: OrderParams,
        response: { 200: data(ResetReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const orderId = request.params.id;
      const parsed = ResetBody.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          instancePath: issue.path.map((part) => `/${String(part)}`).join(''),
          message: issue.message,
          params: issue.code === 'unrecognized_keys' ? { keys: issue.keys } : {},
        }));
        throw unprocessable(fieldErrors('body', issues, AS_SENT_422));
      }
      if (!(await shopHasOrder(request.em, shopId, orderId))) throw notFound('order');
      const codeId = parsed.data.code_id;
      if (codeId !== undefined) {
        const code = await downloadCodeOfOrder(request.em, shopId, orderId, codeId);
        if (!code) throw unprocessable({ code_id: ['is not a download code of this order'] });
        if (code.deleted) throw unprocessable({ code_id: ['the file of this download code was deleted'] });
      }
      const base = publicBaseOf(request);
      const codes = await resetDownloadCodes(request.em, shopId, orderId, codeId);
      return {
        data: {
          order_id: orderId,
          reset_codes: codes.map((c) => ({ id: c.id, file_name: c.file_name, link: downloadLink(base, c.token), usages: c.usages, usages_to_expire: c.usages_to_expire })),
        },
      };
    },
  );
};
