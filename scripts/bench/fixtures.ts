/** The bench's data, made through the operator API as the panel would make it. */
import { randomUUID } from 'node:crypto';

export interface BenchFixtures {
  platformId: string;
  apiKey: string;
  /** The active courses `GET /api/courses` lists. */
  courseIds: string[];
}

const ACTIVE_COURSES = 5;

const SECTIONS = [
  { title: 'Basics', access_level: 0, lessons: [{ title: 'Intro' }, { title: 'First steps' }] },
  { title: 'Premium', access_level: 1, lessons: [{ title: 'Masterclass' }] },
];

/** A call of the operator API (`/admin/v1...`); the reply's `data`. */
function operatorApi(apiUrl: string, adminToken: string) {
  return async <T>(method: string, path: string, body: unknown): Promise<T> => {
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
}

/** One more active course on the platform (a fresh one per grant round keeps the visibility poll small). */
export async function createCourse(apiUrl: string, adminToken: string, platformId: string, title: string): Promise<string> {
  const course = await operatorApi(apiUrl, adminToken)<{ id: string }>('POST', `/platforms/${platformId}/courses`, { title, sections: SECTIONS });
  return course.id;
}

export async function createFixtures(apiUrl: string, adminToken: string): Promise<BenchFixtures> {
  const operator = operatorApi(apiUrl, adminToken);
  const subdomain = `bench-${randomUUID().slice(0, 8)}`;
  const platform = await operator<{ id: string; api_key: string }>('POST', '/platforms', { subdomain, title: 'Bench school' });
  const courseIds: string[] = [];
  for (let i = 1; i <= ACTIVE_COURSES; i++) courseIds.push(await createCourse(apiUrl, adminToken, platform.id, `Course ${i}`));
  // One inactive course, so that the `active` condition of the list has something to leave out.
  await operator('POST', `/platforms/${platform.id}/courses`, { title: 'Retired course', active: false, sections: SECTIONS });

  return { platformId: platform.id, apiKey: platform.api_key, courseIds };
}
