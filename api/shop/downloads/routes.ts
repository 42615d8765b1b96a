import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countDownloadUse, downloadRefusal, uncountDownloadUse, type DownloadRefusal, type DownloadUse } from '../../../db/repositories/shop/downloads.ts';
import { baseLetters, buyerOf, UnreadablePdf, watermarkPdf, watermarkText } from '../../../domain/shop/watermark.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { ErrorBody } from '../../shared/schemas.ts';

const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

const REFUSALS: Record<DownloadRefusal, string> = {
  used_up: 'the download limit of this link is used up',
  expired: 'this download link has expired',
  deleted: 'the file of this download link was deleted',
  withdrawn: 'the order of this download link was canceled or returned',
};

/** `attachment` with an ASCII name for old clients and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(fileName: string): string {
  const ascii = [...fileName].map(baseLetters).join('').replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `GET /downloads/:token` (DESIGN.md section 7, Downloads): the public link of a download code,
 * outside the shop interface (no key: the token is the secret). Every GET counts one use before
 * anything is sent; once used up, expired or with its file deleted the link answers 410, an
 * unknown token 404. A PDF is served with the buyer's watermark; other files as stored. No HEAD
 * route: a link checker's HEAD must not spend a use.
 */
export const downloadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/downloads/:token',
    {
      exposeHeadRoute: false,
      schema: {
        operationId: 'public.downloads.read',
        summary: 'Downloads a purchased file',
        description: 'Serves the file of a download code and counts one use; 410 once used up, expired, when the file was deleted or the order canceled or returned.',
        params: z.object({ token: z.string() }),
        response: { 200: z.any().describe('the file, as an attachment'), 404: ErrorBody, 410: ErrorBody },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const use = TOKEN.test(token) ? await countDownloadUse(request.em, token) : null;
      if (!use) {
        const refusal = TOKEN.test(token) ? await downloadRefusal(request.em, token) : null;
        if (!refusal) throw notFound('download link');
        throw new HttpError(410, REFUSALS[refusal]);
      }
      const body = await fileOf(use).catch(async (error: unknown) => {
        // Nothing was sent: the use is given back.
        await uncountDownloadUse(request.em, use.id);
        throw error;
      });
      reply
        .type(use.contentType)
        .header('content-disposition', contentDisposition(use.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return reply.send(body);
    },
  );

  async function fileOf(use: DownloadUse) {
    const gone = () => new HttpError(410, 'the file of this download link is no longer stored');
    const text = use.contentType === 'application/pdf' ? watermarkText(use.watermark, buyerOf(use)) : '';
    if (!text) {
      const stream = await app.fileStorage.stream(use.storageKey);
      if (!stream) throw gone();
      return stream;
    }
    const bytes = await app.fileStorage.get(use.storageKey);
    if (!bytes) throw gone();
    try {
      return Buffer.from(await watermarkPdf(bytes, text, use.watermarkInterval));
    } catch (error) {
      if (!(error instanceof UnreadablePdf)) throw error;
      // A PDF pdf-lib cannot open (damaged, encrypted) is served as stored (docs/decisions/, Downloads).
      app.log.warn({ codeId: use.id, err: error }, 'download served without its watermark');
      return bytes;
    }
  }
};
