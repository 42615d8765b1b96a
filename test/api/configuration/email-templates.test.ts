import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES } from '../../../domain/access/mail-templates.ts';
import { createCourse, createPlatform, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey, mailLog } from '../../helpers/configuration.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { platformPrefix } from '../../../domain/shared/workflow-ids.ts';
import { underPrefix, workflowsSettled } from '../../helpers/workflows-settled.ts';

let stack: TestStack;
let worker: RunningWorker;
let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  stack = await startTestApp('configuration-templates');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  platform = await createPlatform(stack.app, 'Mail academy');
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

const get = (path: string, k = key) => configure(stack.app, 'GET', path, k);
const patch = (slug: string, body: unknown, k = key) => configure(stack.app, 'PATCH', `/email_templates/${slug}`, k, body);
const restore = (slug: string, k = key) => configure(stack.app, 'POST', `/email_templates/${slug}/restore`, k);

async function grant(p: TestPlatform, course: TestCourse, email: string) {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/courses/subscribe',
    headers: { 'x-api-key': p.apiKey },
    payload: { subscriptions: { course_id: course.id, email, name: 'Ann Learner' } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /email_templates', () => {
  it('lists the platform templates with slug, name, subject, tags and customized', async () => {
    const res = await get('/email_templates');
    expect(res.statusCode).toBe(200);
    const list = res.json().data;
    expect(list.map((t: { slug: string }) => t.slug)).toEqual(['user_invitation', 'user_reinvitation', 'community_access_granted']);
    expect(list[0]).toEqual({
      slug: 'user_invitation',
      name: DEFAULT_TEMPLATES.user_invitation!.name,
      subject: DEFAULT_TEMPLATES.user_invitation!.subject,
      tags: expect.arrayContaining(['{{LINK_LOGOWANIE}}']),
      customized: false,
    });
  });

  it('a single template adds host, sender_name, sender_email and description', async () => {
    const res = await get('/email_templates/community_access_granted');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      slug: 'community_access_granted',
      name: expect.any(String),
      subject: DEFAULT_TEMPLATES.community_access_granted!.subject,
      tags: expect.any(Array),
      customized: false,
      host: `${platform.subdomain}.localhost:8080`,
      sender_name: null,
      sender_email: null,
      description: DEFAULT_TEMPLATES.community_access_granted!.description,
    });
  });

  it('an unknown slug is 404', async () => {
    expect((await get('/email_templates/nope')).statusCode).toBe(404);
    expect((await patch('nope', { subject: 'x' })).statusCode).toBe(404);
  });
});

describe('PATCH /email_templates/:slug', () => {
  it('the first change makes the platform its own copy; the default stays for other platforms', async () => {
    const res = await patch('user_reinvitation', { subject: 'Our own subject', sender_name: 'Academy team' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      subject: 'Our own subject',
      sender_name: 'Academy team',
      sender_email: null,
      customized: true,
      description: DEFAULT_TEMPLATES.user_reinvitation!.description,
    });
    const second = await patch('user_reinvitation', { sender_email: 'team@academy.test' });
    expect(second.json().data).toMatchObject({ subject: 'Our own subject', sender_name: 'Academy team', sender_email: 'team@academy.test' });

    const other = await createPlatform(stack.app);
    const otherKey = (await createConfigurationKey(stack.app, other.id, ['read'])).token;
    const untouched = (await get('/email_templates/user_reinvitation', otherKey)).json().data;
    expect(untouched).toMatchObject({ subject: DEFAULT_TEMPLATES.user_reinvitation!.subject, customized: false });
  });

  it.each(['user_invitation', 'user_reinvitation', 'community_access_granted'])('%s must contain {{LINK_LOGOWANIE}}: without it 422', async (slug) => {
    const res = await patch(slug, { description: '<p>Welcome, sign in on our page.</p>' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.description[0]).toContain('{{LINK_LOGOWANIE}}');
  });

  it.each([
    ['a quoted href', '<p><a href="{{LINK_LOGOWANIE}}">Sign in</a></p>'],
    ['an href with more around it', "<p><a href='{{LINK_LOGOWANIE}}?from=mail'>Sign in</a> {{LINK_LOGOWANIE}}</p>"],
    ['an unquoted href', '<p><a href={{LINK_LOGOWANIE}}>Sign in</a></p>'],
  ])('the tag used as a link target (%s) is refused with 422', async (_label, description) => {
    const res = await patch('user_invitation', { description });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.description[0]).toMatch(/href/);
  });

  it('the tag as plain text, also inside a link text, is accepted', async () => {
    const res = await patch('community_access_granted', { description: '<p>Sign in: <a href="https://help.test">{{LINK_LOGOWANIE}}</a></p>' });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['an empty subject', { subject: '' }, 'subject'],
    ['a bad sender e-mail', { sender_email: 'no' }, 'sender_email'],
    ['a read-only field', { host: 'x.test' }, 'host'],
  ])('refuses %s with 422', async (_label, body, field) => {
    const res = await patch('user_reinvitation', body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });
});

describe('POST /email_templates/:slug/restore', () => {
  it('without a copy answers 404', async () => {
    const fresh = await createPlatform(stack.app);
    const freshKey = (await createConfigurationKey(stack.app, fresh.id)).token;
    const res = await restore('user_invitation', freshKey);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it('removes the copy: the template reads as the default again, and a second restore is 404', async () => {
    await patch('community_access_granted', { subject: 'Custom' });
    const res = await restore('community_access_granted');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ subject: DEFAULT_TEMPLATES.community_access_granted!.subject, customized: false });
    expect((await get('/email_templates/community_access_granted')).json().data.customized).toBe(false);
    expect((await restore('community_access_granted')).statusCode).toBe(404);
  });
});

describe('POST /email_templates/:slug/send_test', () => {
  it("queues the saved template to the administrator's address (202) and it lands in the mail log", async () => {
    await patch('user_reinvitation', { subject: 'Test of {{PLATFORM_TITLE}}' });
    const admin = `admin@${platform.subdomain}.test`;
    const res = await configure(stack.app, 'POST', '/email_templates/user_reinvitation/send_test', key, { email: admin.toUpperCase() });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ data: { status: 'queued', to: admin } });
    const mails = await eventually(async () => {
      const log = await mailLog(stack.app, platform.id, admin);
      expect(log).toHaveLength(1);
      return log;
    });
    expect(mails[0]).toMatchObject({ to: admin, template: 'user_reinvitation', subject: 'Test of Mail academy' });
  });

  it('refuses any other address with 422 and sends nothing', async () => {
    const stranger = uniqueEmail('stranger');
    const res = await configure(stack.app, 'POST', '/email_templates/user_invitation/send_test', key, { email: stranger });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['email']);
    // A refusal starts nothing: once the platform's workflows are over, no mail went out.
    await workflowsSettled(stack.temporal, underPrefix(`${platformPrefix(platform.id)}/`));
    expect(await mailLog(stack.app, platform.id, stranger)).toEqual([]);
  });

  it('an unknown template is 404', async () => {
    const res = await configure(stack.app, 'POST', '/email_templates/nope/send_test', key, { email: `admin@${platform.subdomain}.test` });
    expect(res.statusCode).toBe(404);
  });
});

describe('the invitation a participant receives', () => {
  it("is rendered from the platform's copy with its tags filled, and from the default elsewhere", async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Pottery' });
    const res = await patch('user_invitation', {
      subject: 'Welcome to {{COURSE_TITLE}}, {{PARTICIPANT_NAME}}',
      description: '<p>{{PLATFORM_TITLE}} says hi. Your link: {{LINK_LOGOWANIE}}</p>',
    });
    expect(res.statusCode).toBe(200);
    const email = uniqueEmail('invited');
    await grant(platform, course, email);
    const [mail] = await eventually(async () => {
      const log = await mailLog(stack.app, platform.id, email);
      expect(log).toHaveLength(1);
      return log;
    });
    expect(mail).toMatchObject({ template: 'user_invitation', subject: 'Welcome to Pottery, Ann Learner' });
    expect(mail!.html).toMatch(new RegExp(`^<p>Mail academy says hi\\. Your link: https://${platform.subdomain}\\.test\\.local/login\\?invitation=[\\w-]+</p>$`));

    const other = await createPlatform(stack.app, 'Plain academy');
    const otherCourse = await createCourse(stack.app, other.id, { title: 'Glass' });
    const otherEmail = uniqueEmail('plain');
    await grant(other, otherCourse, otherEmail);
    const [plain] = await eventually(async () => {
      const log = await mailLog(stack.app, other.id, otherEmail);
      expect(log).toHaveLength(1);
      return log;
    });
    expect(plain).toMatchObject({ template: 'user_invitation', subject: 'Your access to Plain academy' });
  });
});
