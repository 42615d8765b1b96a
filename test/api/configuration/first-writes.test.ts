/**
 * Issue 16, item 1 (D): concurrent first writes. The first PATCH of the platform's look, of a
 * platform template and of a course's custom invitation creates a row; requests arriving together
 * on a fresh platform must each get a 200 (no duplicate-key 500), make the row once, and keep what
 * every one of them wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestApp('configuration-first-writes');
});
afterAll(() => stack?.close());

const PARALLEL = 8;

/** A fresh platform with an all-scopes key and a course. */
async function freshPlatform() {
  const platform = await createPlatform(stack.app, 'First writes');
  const key = (await createConfigurationKey(stack.app, platform.id)).token;
  const course = await createCourse(stack.app, platform.id);
  return { platform, key, courseId: course.id };
}

async function rows(table: string, platformId: string): Promise<number> {
  const [row] = await stack.orm.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from ${table} where platform_id = ?`, [platformId]);
  return Number(row?.n);
}

describe('parallel first writes on fresh platforms', () => {
  it('the welcome section and the platform settings: every request 200, one row, every field kept', async () => {
    const { platform, key } = await freshPlatform();
    const colors = Array.from({ length: PARALLEL }, (_, i) => `#00000${i}`);
    const replies = await Promise.all([
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_title: 'Hello' }),
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_text: '<p>Text</p>' }),
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_bg_color: '#FAFAFA' }),
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_title_color: '#101010' }),
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_text_color: '#202020' }),
      configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_video_url: 'https://video.example.com/intro' }),
      ...colors.map((primary_color) => configure(stack.app, 'PATCH', '/platform', key, { primary_color })),
    ]);
    expect(replies.map((r) => `${r.statusCode} ${r.statusCode === 200 ? '' : r.body}`)).toEqual(replies.map(() => '200 '));
    expect(await rows('platform_appearances', platform.id)).toBe(1);
    const welcome = (await configure(stack.app, 'GET', '/welcome_section', key)).json().data;
    expect(welcome).toMatchObject({
      welcome_title: 'Hello',
      welcome_text: '<p>Text</p>',
      welcome_bg_color: '#FAFAFA',
      welcome_title_color: '#101010',
      welcome_text_color: '#202020',
      welcome_video_url: 'https://video.example.com/intro',
    });
    expect(colors).toContain((await configure(stack.app, 'GET', '/platform', key)).json().data.primary_color);
  });

  it('a platform template: every request 200, one copy, the fields of every request kept', async () => {
    const { platform, key } = await freshPlatform();
    const patches = [
      { subject: 'Welcome back' },
      { sender_name: 'The team' },
      { sender_email: 'team@example.com' },
      ...Array.from({ length: PARALLEL - 3 }, () => ({ subject: 'Welcome back' })),
    ];
    const replies = await Promise.all(patches.map((body) => configure(stack.app, 'PATCH', '/email_templates/user_reinvitation', key, body)));
    expect(replies.map((r) => `${r.statusCode} ${r.statusCode === 200 ? '' : r.body}`)).toEqual(replies.map(() => '200 '));
    expect(await rows('platform_mail_templates', platform.id)).toBe(1);
    const template = (await configure(stack.app, 'GET', '/email_templates/user_reinvitation', key)).json().data;
    expect(template).toMatchObject({ subject: 'Welcome back', sender_name: 'The team', sender_email: 'team@example.com', customized: true });
  });

  it("a course's custom invitation: every request 200, each invitation template once", async () => {
    const { platform, key, courseId } = await freshPlatform();
    const replies = await Promise.all(
      Array.from({ length: PARALLEL }, () => configure(stack.app, 'PATCH', `/courses/${courseId}/custom_invitation`, key, { enabled: true })),
    );
    expect(replies.map((r) => `${r.statusCode} ${r.statusCode === 200 ? '' : r.body}`)).toEqual(replies.map(() => '200 '));
    for (const reply of replies) {
      expect(reply.json().data.templates.map((t: { slug: string }) => t.slug).sort()).toEqual(['course_invitation', 'course_reinvitation']);
    }
    expect(await rows('course_mail_templates', platform.id)).toBe(2);
  });

  it('all three at once on several fresh platforms', async () => {
    const platforms = await Promise.all([freshPlatform(), freshPlatform(), freshPlatform()]);
    const replies = await Promise.all(
      platforms.flatMap(({ key, courseId }) =>
        Array.from({ length: PARALLEL }, (_, i) => [
          configure(stack.app, 'PATCH', '/welcome_section', key, { welcome_title: `Hello ${i}` }),
          configure(stack.app, 'PATCH', '/email_templates/user_reinvitation', key, { subject: `Subject ${i}` }),
          configure(stack.app, 'PATCH', `/courses/${courseId}/custom_invitation`, key, { enabled: true }),
        ]).flat(),
      ),
    );
    expect(replies.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    for (const { platform } of platforms) {
      expect(await rows('platform_appearances', platform.id)).toBe(1);
      expect(await rows('platform_mail_templates', platform.id)).toBe(1);
      expect(await rows('course_mail_templates', platform.id)).toBe(2);
    }
  });
});
