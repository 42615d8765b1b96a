import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Audiobook, Course } from '../../db/entities/index.ts';
import { ErrorBody } from '../schemas.ts';
import { AudiobookList, CourseList } from './schemas.ts';

const security = [{ apiKey: [] }];
const unauthorizedReply = { 401: ErrorBody };

/** `GET /api/test`, `GET /api/courses`, `GET /api/audiobooks`: active items only. */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/test',
    { schema: { tags: ['access'], security, response: { 200: z.object({ status: z.literal('ok') }), ...unauthorizedReply } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/api/courses', { schema: { tags: ['access'], security, response: { 200: CourseList, ...unauthorizedReply } } }, async (request) => {
    const courses = await request.em.find(Course, { active: true }, { fields: ['id', 'title'], orderBy: { title: 'asc', id: 'asc' } });
    return { courses: courses.map(({ id, title }) => ({ id, title })) };
  });

  app.get('/api/audiobooks', { schema: { tags: ['access'], security, response: { 200: AudiobookList, ...unauthorizedReply } } }, async (request) => {
    const audiobooks = await request.em.find(Audiobook, { active: true }, { fields: ['id', 'title'], orderBy: { title: 'asc', id: 'asc' } });
    return { audiobooks: audiobooks.map(({ id, title }) => ({ id, title })) };
  });
};
