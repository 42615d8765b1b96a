/**
 * What `npm run faults` and `npm run drill:rolling` share: the api/worker environment of a
 * throwaway stack, a platform with one course to grant, the grants' applied counts read from the
 * database, and a bounded wait.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sleep } from '../stack/lifecycle.ts';

/** The environment of the api and worker processes: own task queue, limits off, logs quiet. */
export function throwawayEnvironment(o: { databaseUrl: string; temporalAddress: string; taskQueuePrefix: string }): { env: NodeJS.ProcessEnv; adminToken: string } {
  const adminToken = randomBytes(24).toString('base64url');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_TASK_QUEUE: `${o.taskQueuePrefix}-${randomUUID().slice(0, 8)}`,
    ADMIN_TOKEN: adminToken,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    HOST: '127.0.0.1',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'fatal',
  };
  return { env, adminToken };
}

/** A platform (its API key) with one course of one free lesson, made through the operator API. */
export async function createGrantCourse(apiUrl: string, adminToken: string, name: string): Promise<{ apiKey: string; courseId: string }> {
  const operator = async (urlPath: string, body: unknown) => {
    const res = await fetch(`${apiUrl}/admin/v1${urlPath}`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${urlPath}: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; api_key?: string } }).data;
  };
  const platform = await operator('/platforms', { subdomain: `${name}-${randomUUID().slice(0, 8)}`, title: `${name} school` });
  const course = await operator(`/platforms/${platform.id}/courses`, { title: 'Course', sections: [{ title: 'Basics', access_level: 0, lessons: [{ title: 'Intro' }] }] });
  return { apiKey: platform.api_key!, courseId: course.id };
}

/** Per e-mail: enrolments in the course and access sources for it; empty while the database does not answer. */
export async function grantCounts(databaseUrl: string, courseId: string): Promise<Map<string, { enrolments: number; sources: number }>> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const counted = async (table: string) =>
      (await client.query<{ email: string; n: string }>(`select p.email, count(*) as n from ${table} t join participants p on p.id = t.participant_id where t.course_id = $1 group by p.email`, [courseId])).rows;
    const counts = new Map<string, { enrolments: number; sources: number }>();
    for (const row of await counted('enrolments')) counts.set(row.email, { enrolments: Number(row.n), sources: 0 });
    for (const row of await counted('access_sources')) counts.set(row.email, { enrolments: counts.get(row.email)?.enrolments ?? 0, sources: Number(row.n) });
    return counts;
  } catch {
    return new Map();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Polls `check` every 250 ms; throws once `timeoutMs` has passed. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(250);
  }
}
