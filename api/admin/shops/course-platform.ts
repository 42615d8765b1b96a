import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkPlatform, linkedPlatformId } from '../../../db/repositories/shop/course-access.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const CoursePlatformReply = z
  .object({
    shop_id: z.uuid(),
    platform_id: z.uuid().nullable().describe('the linked course platform; null when none'),
  })
  .meta({ id: 'ShopCoursePlatform' });

/**
 * The shop's link to one course platform (issue 14): its products' `course_access` names courses
 * of this platform, and a cleared order registers an access order there.
 */
export const shopCoursePlatformAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/course_platform',
    { schema: { operationId: 'admin.shops.course_platform.read', summary: 'Reads the shop\'s course platform link', params: ShopParams, response: { 200: data(CoursePlatformReply), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return { data: { shop_id: shop.id, platform_id: await linkedPlatformId(request.em, shop.id) } };
    },
  );

  app.put(
    '/shops/:shop_id/course_platform',
    {
      schema: {
        operationId: 'admin.shops.course_platform.replace',
        summary: 'Links the shop to a course platform',
        description:
          'Products of the shop then sell courses of this platform (`course_access`), and clearing an order registers an access order there. ' +
          'Relinking leaves access orders already registered on the previous platform as they are.',
        params: ShopParams,
        body: z.strictObject({ platform_id: z.uuid() }),
        response: { 200: data(CoursePlatformReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { platform_id: platformId } = request.body;
      if (!(await linkPlatform(request.em, shop.id, platformId))) throw unprocessable({ platform_id: [`unknown platform: ${platformId}`] });
      return { data: { shop_id: shop.id, platform_id: platformId } };
    },
  );
};
