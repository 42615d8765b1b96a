/** `npm run admin` against a listening API: create a platform, a course, and show a participant. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';

const run = promisify(execFile);
let stack: TestStack;
let url: string;

beforeAll(async () => {
  stack = await startTestApp('admin-cli');
  url = await stack.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => stack?.close());

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args, '--url', url], {
    env: { ...process.env, ADMIN_TOKEN },
  });
  return JSON.parse(stdout);
}

describe('operator CLI', () => {
  it('creates a platform and a course with sections, and shows a participant (404 when unknown)', async () => {
    const subdomain = `cli-${randomUUID().slice(0, 8)}`;
    const platform = (await admin('create-platform', subdomain, 'CLI Academy', '--admin-email', 'a@cli.test')).data;
    expect(platform).toMatchObject({ subdomain, title: 'CLI Academy', api_key: expect.stringMatching(/^ak_/) });

    const course = (await admin('create-course', platform.id, 'From the CLI', '--section', 'Basics:0:Intro|Next', '--section', 'Premium:1:Deep dive')).data;
    expect(course.sections.map((s: { access_level: number; lessons: unknown[] }) => [s.access_level, s.lessons.length])).toEqual([
      [0, 2],
      [1, 1],
    ]);

    const failure = await admin('participant', platform.id, 'nobody@cli.test').catch((error: { code: number; stdout: string }) => ({ code: error.code, body: JSON.parse(error.stdout) }));
    expect(failure).toEqual({ code: 1, body: { error: 'participant not found' } });
  });
});
