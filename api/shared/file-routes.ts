import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createImageStore } from './image-store.ts';
import { notFound } from './errors.ts';
import { scopeToPlatform } from './orm-context.ts';
import { ErrorBody } from './schemas.ts';

const FileParams = z.object({ platform_id: z.uuid(), file_id: z.uuid() });

/**
 * `GET /files/:platform_id/:file_id`: the platform's uploaded images (logo_url, favicon_url, ...),
 * public like any image of a web page, served with the type sniffed at upload.
 */
export const fileRoutes: FastifyPluginAsyncZod<{ storageDir: string }> = async (app, { storageDir }) => {
  const images = createImageStore(storageDir);
  app.get(
    '/files/:platform_id/:file_id',
    {
      schema: {
        operationId: 'public.files.read',
        summary: 'Serves an uploaded platform image',
        params: FileParams,
        response: { 200: z.any().describe('the image (image/png or image/jpeg)'), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { platform_id: platformId, file_id: fileId } = request.params;
      scopeToPlatform(request.em, platformId);
      const file = await images.read(request.em, platformId, fileId);
      if (!file) throw notFound('file');
      return reply
        .type(file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.bytes);
    },
  );
};
