import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { photoFile } from '../../../db/repositories/shop/products.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody } from '../../shared/schemas.ts';

const PhotoParams = z.object({ file_id: z.uuid() });

/**
 * `GET /shop_files/:file_id`: a product photo (`photo_url`), public like any image of a shop page
 * (the id is a random UUID), served with the type sniffed at upload. Only files that are the photo
 * of a visible product are served; e-books and other files never are.
 */
export const productPhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  const storage = app.fileStorage;
  app.get(
    '/shop_files/:file_id',
    { schema: { operationId: 'public.shop_files.read', summary: 'Serves a shop photo', params: PhotoParams, response: { 200: z.any().describe('the photo (image/png or image/jpeg)'), 404: ErrorBody } } },
    async (request, reply) => {
      const file = (await photoFile(request.em, request.params.file_id))?.photo?.getEntity();
      const bytes = file ? await storage.get(file.storageKey) : null;
      if (!file || !bytes) throw notFound('file');
      return reply.type(file.contentType).header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=3600').send(bytes);
    },
  );
};
