/** The bench's data, made through the operator API as the panel would make it. */
import { randomUUID } from 'node:crypto';

export interface BenchFixtures {
  platformId: string;
  apiKey: string;
  /** The active courses `GET /api/courses` lists. */
  courseIds: string[];
  /** The course the measured grants go to, and the one the warm-up grants go to. */
  grantCourseId: string;
  warmupCourseId: string;
}

const ACTIVE_COURSES = 5;

export async function createFixtures(apiUrl: string, adminToken: string): Promise<BenchFixtures> {
  const operator = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${apiUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} /admin/v1${path}: HTTP ${res.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };

  const subdomain = `bench-${randomUUID().slice(0, 8)}`;
  const platform = await operator<{ id: string; api_key: string }>('POST', '/platforms', { subdomain, title: 'Bench school' });
  const sections = [
    { title: 'Basics', access_level: 0, lessons: [{ title: 'Intro' }, { title: 'First steps' }] },
    { title: 'Premium', access_level: 1, lessons: [{ title: 'Masterclass' }] },
  ];
  const courseIds: string[] = [];
  for (let i = 1; i <= ACTIVE_COURSES; i++) {
    const course = await operator<{ id: string }>('POST', `/platforms/${platform.id}/courses`, { title: `Course ${i}`, sections });
    courseIds.push(course.id);
  }
  // One inactive course, so that the `active` condition of the list has something to leave out.
  await operator('POST', `/platforms/${platform.id}/courses`, { title: 'Retired course', active: false, sections });

  return { platformId: platform.id, apiKey: platform.api_key, courseIds, grantCourseId: courseIds[0]!, warmupCourseId: courseIds[1]! };
}
