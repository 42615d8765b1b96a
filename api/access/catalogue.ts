import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeCatalogueItems, type CatalogueKind } from '../../db/repositories/access/catalogue.ts';
import { platformOf } from './api-key-auth.ts';
import { ErrorBody } from '../shared/schemas.ts';
import { precompiledSerializer } from '../shared/precompiled-serializer.ts';
import { AudiobookList, CourseList } from './schemas.ts';

/** The lists are the interface's hottest replies: written by a serializer compiled at start. */
const serializerCompiler = precompiledSerializer([200]);
const unauthorizedReply = { 401: ErrorBody };

/** The account's active courses or audiobooks (one plain statement: the interface's hottest read). */
const activeItems = (request: FastifyRequest, kind: CatalogueKind) => activeCatalogueItems(request.em, platformOf(request).id, kind);

/** `GET /api/test`, `GET /api/courses`, `GET /api/audiobooks`: active items only. */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/test',
    { schema: { operationId: 'access.test.check', summary: 'Checks the platform API key', response: { 200: z.object({ status: z.literal('ok') }), ...unauthorizedReply } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/api/courses', { serializerCompiler, schema: { operationId: 'access.courses.list', summary: 'Lists the platform\'s courses', response: { 200: CourseList, ...unauthorizedReply } } }, async (request) => ({
    courses: await activeItems(request, 'courses'),
  }));

  app.get('/api/audiobooks', { serializerCompiler, schema: { operationId: 'access.audiobooks.list', summary: 'Lists the platform\'s audiobooks', response: { 200: AudiobookList, ...unauthorizedReply } } }, async (request) => ({
    audiobooks: await activeItems(request, 'audiobooks'),
  }));
};
