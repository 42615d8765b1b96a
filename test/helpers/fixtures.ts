/** Test data made through the operator API, as the panel would make it. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { App } from '../../api/app.ts';
import { ADMIN_TOKEN } from './stack.ts';

export const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };

export interface TestPlatform {
  id: string;
  subdomain: string;
  apiKey: string;
}

export async function createPlatform(app: App, title = 'Test platform'): Promise<TestPlatform> {
  const subdomain = `p-${randomUUID().slice(0, 12)}`;
  const res = await app.inject({ method: 'POST', url: '/admin/v1/platforms', headers: operator, payload: { subdomain, title, admin_email: `admin@${subdomain}.test` } });
  expect(res.statusCode, res.body).toBe(201);
  const { id, api_key } = res.json().data;
  return { id, subdomain, apiKey: api_key };
}

export interface TestCourse {
  id: string;
  slug: string;
  sections: { id: string; access_level: number; lessons: { id: string; title: string }[] }[];
}

/** A course with a regular section (two lessons) and a premium section (one lesson). */
export async function createCourse(app: App, platformId: string, body: Record<string, unknown> = {}): Promise<TestCourse> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/platforms/${platformId}/courses`,
    headers: operator,
    payload: {
      title: `Course ${randomUUID().slice(0, 8)}`,
      sections: [
        { title: 'Basics', access_level: 0, lessons: [{ title: 'Intro' }, { title: 'First steps' }] },
        { title: 'Premium', access_level: 1, lessons: [{ title: 'Masterclass' }] },
      ],
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

export async function createAudiobook(app: App, platformId: string, body: Record<string, unknown> = {}): Promise<{ id: string; title: string }> {
  const res = await app.inject({ method: 'POST', url: `/admin/v1/platforms/${platformId}/audiobooks`, headers: operator, payload: { title: 'Audiobook', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

export function lessonIds(course: TestCourse, maxLevel: number): string[] {
  return course.sections.filter((s) => s.access_level <= maxLevel).flatMap((s) => s.lessons.map((l) => l.id));
}

export const uniqueEmail = (label = 'learner') => `${label}-${randomUUID().slice(0, 8)}@example.com`;
