import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES } from '../../../domain/access/mail-templates.ts';
import { createCourse, createPlatform, operator, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey, mailLog } from '../../helpers/configuration.ts';
import { platformPrefix } from '../../../domain/shared/workflow-ids.ts';
import { underPrefix, workflowsSettled } from '../../helpers/workflows-settled.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let worker: RunningWorker;
let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  stack = await startTestApp('configuration-course-templates');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  platform = await createPlatform(stack.app, 'Course academy');
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

const base = (course: TestCourse | string) => `/courses/${typeof course === 'string' ? course : course.id}/email_templates`;
const get = (path: string) => configure(stack.app, 'GET', path, key);
const customInvitation = (course: TestCourse, enabled: boolean) => configure(stack.app, 'PATCH', `/courses/${course.id}/custom_invitation`, key, { enabled });
const createTemplate = (course: TestCourse, body: Record<string, unknown>) =>
  configure(stack.app, 'POST', base(course), key, { subject: 'Course news', description: '<p>Hello {{PARTICIPANT_NAME}}</p>', active: true, ...body });

/** When the latest request that starts a workflow went out (a grant, a first lesson completion, a reinvitation). */
let startedAt = new Date(0);

async function grant(course: TestCourse, email: string) {
  startedAt = new Date();
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/courses/subscribe',
    headers: { 'x-api-key': platform.apiKey },
    payload: { subscriptions: { course_id: course.id, email, name: 'Bo' } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const completeLesson = (email: string, lessonId: string) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/lesson_completions`, headers: operator, payload: { email, lesson_id: lessonId } });

/** Completes a lesson once the (background) grant has given the participant the course. */
const completeWhenEnrolled = (email: string, lessonId: string) =>
  eventually(async () => {
    startedAt = new Date();
    const res = await completeLesson(email, lessonId);
    expect(res.statusCode, res.body).toBe(201);
    return res;
  });

/** Waits until the participant's mails are exactly these templates (in any order). */
const mailsBecome = (email: string, templates: string[]) =>
  eventually(async () => {
    const log = await mailLog(stack.app, platform.id, email);
    expect(log.map((m) => m.template).sort()).toEqual([...templates].sort());
    return log;
  });

/** Waits until the platform's workflows (the latest request's among them) are over or wait on timers days away, then checks that nothing more arrived. */
async function staysAt(email: string, templates: string[]) {
  await workflowsSettled(stack.temporal, underPrefix(`${platformPrefix(platform.id)}/`), { started: 1, since: startedAt });
  expect((await mailLog(stack.app, platform.id, email)).map((m) => m.template).sort()).toEqual([...templates].sort());
}

describe('addressing a course', () => {
  it('by id or by slug; a course of another platform or an unknown one is 404', async () => {
    const course = await createCourse(stack.app, platform.id, { slug: `by-slug-${Date.now()}` });
    expect((await get(base(course))).json()).toEqual({ data: [] });
    expect((await get(base(course.slug))).statusCode).toBe(200);
    expect((await get(base('no-such-course'))).statusCode).toBe(404);
    const foreign = await createCourse(stack.app, (await createPlatform(stack.app)).id);
    expect((await get(base(foreign))).statusCode).toBe(404);
  });
});

describe('PATCH /courses/:course_id/custom_invitation', () => {
  it('{enabled: true} creates course_invitation and course_reinvitation; false removes them', async () => {
    const course = await createCourse(stack.app, platform.id);
    const on = await customInvitation(course, true);
    expect(on.statusCode).toBe(200);
    expect(on.json().data.enabled).toBe(true);
    expect(on.json().data.templates.map((t: { slug: string }) => t.slug).sort()).toEqual(['course_invitation', 'course_reinvitation']);

    const single = (await get(`${base(course)}/course_invitation`)).json().data;
    expect(single).toMatchObject({
      slug: 'course_invitation',
      subject: DEFAULT_TEMPLATES.course_invitation!.subject,
      description: DEFAULT_TEMPLATES.course_invitation!.description,
      customized: false,
      active: true,
      send_after: null,
      send_after_lesson: null,
      notify_previous_users: false,
    });
    expect((await customInvitation(course, true)).json().data.templates).toHaveLength(2);

    const off = await customInvitation(course, false);
    expect(off.json().data).toEqual({ enabled: false, templates: [] });
    expect((await get(base(course))).json().data).toEqual([]);
  });

  it('the course invitation templates follow the tag rule and take no timing fields', async () => {
    const course = await createCourse(stack.app, platform.id);
    await customInvitation(course, true);
    const missing = await configure(stack.app, 'PATCH', `${base(course)}/course_invitation`, key, { description: '<p>no link</p>' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['description']);
    const asHref = await configure(stack.app, 'PATCH', `${base(course)}/course_reinvitation`, key, { description: '<a href="{{LINK_LOGOWANIE}}">in</a>' });
    expect(asHref.statusCode).toBe(422);
    const timing = await configure(stack.app, 'PATCH', `${base(course)}/course_invitation`, key, { send_after: 3 });
    expect(timing.statusCode).toBe(422);
    expect(Object.keys(timing.json().errors)).toEqual(['send_after']);
  });

  it('restore: 404 while the course invitation is not customized, then back to the default', async () => {
    const course = await createCourse(stack.app, platform.id);
    await customInvitation(course, true);
    const restore = () => configure(stack.app, 'POST', `${base(course)}/course_invitation/restore`, key);
    expect((await restore()).statusCode).toBe(404);
    await configure(stack.app, 'PATCH', `${base(course)}/course_invitation`, key, { subject: 'Mine' });
    expect((await get(`${base(course)}/course_invitation`)).json().data).toMatchObject({ subject: 'Mine', customized: true });
    const restored = await restore();
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ subject: DEFAULT_TEMPLATES.course_invitation!.subject, customized: false });
  });
});

describe('invitations to a course with its own invitation', () => {
  it("a new participant gets the course's course_invitation; an existing one its course_reinvitation", async () => {
    const plainCourse = await createCourse(stack.app, platform.id, { title: 'Plain course' });
    const ownCourse = await createCourse(stack.app, platform.id, { title: 'Own course' });
    await customInvitation(ownCourse, true);
    const own = (slug: string, body: unknown) => configure(stack.app, 'PATCH', `${base(ownCourse)}/${slug}`, key, body);
    expect((await own('course_invitation', { subject: 'Own welcome to {{COURSE_TITLE}}' })).statusCode).toBe(200);
    expect((await own('course_reinvitation', { subject: 'Own course added: {{COURSE_TITLE}}' })).statusCode).toBe(200);

    const newcomer = uniqueEmail('newcomer');
    await grant(ownCourse, newcomer);
    const [invitation] = await mailsBecome(newcomer, ['course_invitation']);
    expect(invitation).toMatchObject({ subject: 'Own welcome to Own course' });
    expect(invitation!.html).toContain(`https://${platform.subdomain}.test.local/login?invitation=`);

    const regular = uniqueEmail('regular');
    await grant(plainCourse, regular);
    await mailsBecome(regular, ['user_invitation']);
    await grant(ownCourse, regular);
    const mails = await mailsBecome(regular, ['user_invitation', 'course_reinvitation']);
    expect(mails.find((m) => m.template === 'course_reinvitation')).toMatchObject({ subject: 'Own course added: Own course' });

    await grant(ownCourse, regular);
    await staysAt(regular, ['user_invitation', 'course_reinvitation']);
  });

  it("an inactive course invitation leaves the platform's invitation in place", async () => {
    const course = await createCourse(stack.app, platform.id);
    await customInvitation(course, true);
    await configure(stack.app, 'PATCH', `${base(course)}/course_invitation`, key, { active: false });
    const email = uniqueEmail('inactive');
    await grant(course, email);
    await mailsBecome(email, ['user_invitation']);
  });
});

describe('POST /courses/:course_id/email_templates (mails after a lesson or after enrolment)', () => {
  it('refuses a lesson of another course, an unknown lesson and a mail without a trigger with 422', async () => {
    const course = await createCourse(stack.app, platform.id);
    const otherCourse = await createCourse(stack.app, platform.id);
    const foreignLesson = otherCourse.sections[0]!.lessons[0]!.id;
    for (const body of [{ send_after_lesson: foreignLesson }, { send_after_lesson: '00000000-0000-4000-8000-000000000000' }, {}]) {
      const res = await createTemplate(course, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['send_after_lesson']);
    }
    expect((await get(base(course))).json().data).toEqual([]);
  });

  it('refuses a PATCH that would leave a timed mail with neither send_after nor send_after_lesson (422)', async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Untimed' });
    const lesson = course.sections[0]!.lessons[0]!;
    const template = (await createTemplate(course, { send_after_lesson: lesson.id })).json().data;
    const res = await configure(stack.app, 'PATCH', `${base(course)}/${template.slug}`, key, { send_after_lesson: null });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['send_after']);
    const moved = await configure(stack.app, 'PATCH', `${base(course)}/${template.slug}`, key, { send_after_lesson: null, send_after: 2 });
    expect(moved.statusCode).toBe(200);
  });

  it('creates the mail (201) and sends it once when a participant completes that lesson', async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Clay' });
    const [first, second] = course.sections[0]!.lessons;
    const created = await createTemplate(course, { send_after_lesson: first!.id, subject: 'You finished {{COURSE_TITLE}} lesson one' });
    expect(created.statusCode).toBe(201);
    const template = created.json().data;
    expect(template).toMatchObject({ active: true, send_after_lesson: first!.id, send_after: null, customized: false, description: '<p>Hello {{PARTICIPANT_NAME}}</p>' });
    expect((await get(`${base(course)}/${template.slug}`)).json().data).toEqual(template);

    const email = uniqueEmail('learner');
    await grant(course, email);
    await mailsBecome(email, ['user_invitation']);

    await completeWhenEnrolled(email, second!.id);
    await staysAt(email, ['user_invitation']);

    const done = await completeLesson(email, first!.id);
    expect(done.statusCode).toBe(201);
    expect(done.json().data).toEqual({ email, lesson_id: first!.id, course_id: course.id, completed_at: expect.any(String) });
    const mails = await mailsBecome(email, ['user_invitation', template.slug]);
    expect(mails.find((m) => m.template === template.slug)).toMatchObject({ subject: 'You finished Clay lesson one', html: '<p>Hello Bo</p>' });

    expect((await completeLesson(email, first!.id)).statusCode).toBe(201);
    await staysAt(email, ['user_invitation', template.slug]);
  });

  it('honours active: false, and switching it on later', async () => {
    const course = await createCourse(stack.app, platform.id);
    const [first, second] = course.sections[0]!.lessons;
    const created = (await createTemplate(course, { send_after_lesson: first!.id, active: false })).json().data;
    await createTemplate(course, { send_after_lesson: second!.id, active: true });
    const email = uniqueEmail('quiet');
    await grant(course, email);
    await completeWhenEnrolled(email, first!.id);
    await staysAt(email, ['user_invitation']);

    await configure(stack.app, 'PATCH', `${base(course)}/${created.slug}`, key, { active: true });
    const later = uniqueEmail('later');
    await grant(course, later);
    await completeWhenEnrolled(later, first!.id);
    await mailsBecome(later, ['user_invitation', created.slug]);
  });

  it('send_after: the mail goes that many days after enrolment (0: right away); later ones wait', async () => {
    const course = await createCourse(stack.app, platform.id);
    const now = (await createTemplate(course, { send_after: 0, subject: 'Day zero' })).json().data;
    await createTemplate(course, { send_after: 2, subject: 'Day two' });
    expect(now.slug).toMatch(/^after_enrolment_/);
    const email = uniqueEmail('timed');
    await grant(course, email);
    await mailsBecome(email, ['user_invitation', now.slug]);
    await staysAt(email, ['user_invitation', now.slug]);
  });

  it('PATCH changes only the fields sent, and a timed mail needs no login link', async () => {
    const course = await createCourse(stack.app, platform.id);
    const lesson = course.sections[0]!.lessons[0]!.id;
    const created = (await createTemplate(course, { send_after_lesson: lesson })).json().data;
    const res = await configure(stack.app, 'PATCH', `${base(course)}/${created.slug}`, key, { send_after: 3, description: '<p>plain</p>' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ...created, send_after: 3, description: '<p>plain</p>' });
    const foreign = (await createCourse(stack.app, platform.id)).sections[0]!.lessons[0]!.id;
    expect((await configure(stack.app, 'PATCH', `${base(course)}/${created.slug}`, key, { send_after_lesson: foreign })).statusCode).toBe(422);
    expect((await configure(stack.app, 'POST', `${base(course)}/${created.slug}/restore`, key)).statusCode).toBe(404);
  });

  it('send_test of a course template goes to the administrator', async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Tested' });
    const created = (await createTemplate(course, { send_after: 5, subject: 'Test of {{COURSE_TITLE}}' })).json().data;
    const admin = `admin@${platform.subdomain}.test`;
    const res = await configure(stack.app, 'POST', `${base(course)}/${created.slug}/send_test`, key, { email: admin });
    expect(res.statusCode).toBe(202);
    await eventually(async () => {
      const log = await mailLog(stack.app, platform.id, admin);
      expect(log.find((m) => m.template === created.slug)).toMatchObject({ subject: 'Test of Tested' });
    });
  });
});

describe('POST /admin/v1/platforms/:platform_id/lesson_completions', () => {
  it('answers 404 for an unknown participant or lesson, 409 without access to the course', async () => {
    const course = await createCourse(stack.app, platform.id);
    const lesson = course.sections[0]!.lessons[0]!.id;
    expect((await completeLesson(uniqueEmail('nobody'), lesson)).statusCode).toBe(404);
    const email = uniqueEmail('enrolled');
    await grant(course, email);
    await completeWhenEnrolled(email, course.sections[0]!.lessons[1]!.id);
    expect((await completeLesson(email, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const otherCourse = await createCourse(stack.app, platform.id);
    expect((await completeLesson(email, otherCourse.sections[0]!.lessons[0]!.id)).statusCode).toBe(409);
  });
});

describe('rule 1 in the learner endpoints', () => {
  it('a lesson above the participant\'s level cannot be completed or passed: 403, nothing recorded, no mail or event', async () => {
    const course = await createCourse(stack.app, platform.id);
    const premium = course.sections.find((s) => s.access_level === 1)!.lessons[0]!.id;
    const after = (await createTemplate(course, { send_after_lesson: premium })).json().data;
    const email = uniqueEmail('regular');
    await grant(course, email);
    await completeWhenEnrolled(email, course.sections[0]!.lessons[0]!.id);

    const completion = await completeLesson(email, premium);
    expect(completion.statusCode).toBe(403);
    expect(completion.json()).toEqual({ error: expect.any(String) });
    const quiz = await stack.app.inject({
      method: 'POST',
      url: `/admin/v1/platforms/${platform.id}/quiz_results`,
      headers: operator,
      payload: { email, lesson_id: premium, score: 100, passed: true },
    });
    expect(quiz.statusCode).toBe(403);
    expect(quiz.json()).toEqual({ error: expect.any(String) });

    const rows = async (table: string) =>
      (await stack.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table} where platform_id = ? and lesson_id = ?`, [platform.id, premium]))[0]!.n;
    expect(await rows('lesson_completions')).toBe(0);
    expect(await rows('quiz_results')).toBe(0);
    const events = await stack.orm.em.fork().getConnection().execute(
      `select type from domain_events where platform_id = ? and (type = 'course_completed' and payload::text like ? or type in ('lesson_completed', 'quiz_passed') and payload::text like ?)`,
      [platform.id, `%${email}%`, `%${premium}%`],
    );
    expect(events).toEqual([]);
    await staysAt(email, ['user_invitation']);
    expect((await mailLog(stack.app, platform.id, email)).map((m) => m.template)).not.toContain(after.slug);
  });
});

describe('viewed_at', () => {
  const view = (email: string, courseId: string) =>
    stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/course_views`, headers: operator, payload: { email, course_id: courseId } });
  const lookup = async (email: string) =>
    (await stack.app.inject({ method: 'GET', url: `/api/users/enrollments?email=${encodeURIComponent(email)}`, headers: { 'x-api-key': platform.apiKey } })).json().courses;
  const operatorView = async (email: string) =>
    (await stack.app.inject({ method: 'GET', url: `/admin/v1/platforms/${platform.id}/participants?email=${encodeURIComponent(email)}`, headers: operator })).json().data.courses;

  it('POST course_views records the first view; the lookup and the operator view return it', async () => {
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('viewer');
    await grant(course, email);
    await eventually(async () => expect(await lookup(email)).toHaveLength(1));
    expect((await lookup(email))[0].viewed_at).toBeNull();
    expect((await operatorView(email))[0].viewed_at).toBeNull();

    const first = await view(email, course.id);
    expect(first.statusCode, first.body).toBe(201);
    const viewedAt: string = first.json().data.viewed_at;
    expect(first.json()).toEqual({ data: { email, course_id: course.id, viewed_at: expect.stringMatching(/Z$/) } });
    const again = await view(email, course.id);
    expect(again.json().data.viewed_at).toBe(viewedAt);
    expect((await lookup(email))[0].viewed_at).toBe(viewedAt);
    expect((await operatorView(email))[0]).toMatchObject({ course_id: course.id, viewed_at: viewedAt });

    expect((await view(uniqueEmail('nobody'), course.id)).statusCode).toBe(404);
    expect((await view(email, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await view(email, (await createCourse(stack.app, platform.id)).id)).statusCode).toBe(409);
  });

  it('the first lesson completion counts as a view', async () => {
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('completer');
    await grant(course, email);
    const completed = await completeWhenEnrolled(email, course.sections[0]!.lessons[0]!.id);
    const viewedAt: string = (await lookup(email))[0].viewed_at;
    expect(viewedAt).toEqual(expect.stringMatching(/Z$/));
    expect(Date.parse(viewedAt)).toBeLessThanOrEqual(Date.parse(completed.json().data.completed_at) + 1000);
    await completeLesson(email, course.sections[0]!.lessons[1]!.id);
    expect((await lookup(email))[0].viewed_at).toBe(viewedAt);
    expect((await operatorView(email))[0].viewed_at).toBe(viewedAt);
  });
});

describe('POST /admin/v1/platforms/:platform_id/participants/reinvite', () => {
  const reinvite = (email: string) => {
    startedAt = new Date();
    return stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/participants/reinvite`, headers: operator, payload: { email } });
  };
  const linkOf = (html: string) => /invitation=([\w-]+)/.exec(html)?.[1];

  it('sends user_reinvitation with a fresh login link, once per request; 404 for an unknown participant', async () => {
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('reinvited');
    await grant(course, email);
    const [invitation] = await mailsBecome(email, ['user_invitation']);

    const res = await reinvite(email.toUpperCase());
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ data: { email, template: 'user_reinvitation' } });
    const log = await mailsBecome(email, ['user_invitation', 'user_reinvitation']);
    const first = linkOf(log.find((m) => m.template === 'user_reinvitation')!.html);
    expect(first).toEqual(expect.any(String));
    expect(first).not.toBe(linkOf(invitation!.html));

    expect((await reinvite(email)).statusCode).toBe(202);
    const again = await mailsBecome(email, ['user_invitation', 'user_reinvitation', 'user_reinvitation']);
    expect(new Set(again.filter((m) => m.template === 'user_reinvitation').map((m) => linkOf(m.html))).size).toBe(2);
    await staysAt(email, ['user_invitation', 'user_reinvitation', 'user_reinvitation']);

    expect((await reinvite(uniqueEmail('nobody'))).statusCode).toBe(404);
  });
});

describe('POST /admin/v1/platforms/:platform_id/participants/community_access', () => {
  const announce = (email: string) =>
    stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/participants/community_access`, headers: operator, payload: { email } });

  it('sends community_access_granted with a login link once per participant; 404 for an unknown participant', async () => {
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('community');
    await grant(course, email);
    await mailsBecome(email, ['user_invitation']);

    const res = await announce(email);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ data: { email, template: 'community_access_granted' } });
    const log = await mailsBecome(email, ['user_invitation', 'community_access_granted']);
    expect(log.find((m) => m.template === 'community_access_granted')!.html).toMatch(/invitation=[\w-]+/);

    expect((await announce(email)).statusCode).toBe(202);
    await staysAt(email, ['user_invitation', 'community_access_granted']);
    expect((await announce(uniqueEmail('nobody'))).statusCode).toBe(404);
  });
});

describe('a new course for a participant whose invitation went unanswered', () => {
  /** Moves the participant's invitation back in time, as if it went out `days` ago. */
  const invitedDaysAgo = (email: string, days: number) =>
    stack.orm.em
      .fork()
      .getConnection()
      .execute(`update participants set invited_at = now() - make_interval(days => ?) where platform_id = ? and email = ?`, [days, platform.id, email]);

  it('sends user_reinvitation with a fresh link when the invitation is a day old and the platform was never used', async () => {
    const [first, second, third] = [await createCourse(stack.app, platform.id), await createCourse(stack.app, platform.id), await createCourse(stack.app, platform.id)];
    const email = uniqueEmail('dormant');
    await grant(first, email);
    await mailsBecome(email, ['user_invitation']);

    // Within a day of the invitation (a burst of grants): nothing, the fresh link stays valid.
    await grant(second, email);
    await staysAt(email, ['user_invitation']);

    await invitedDaysAgo(email, 2);
    await grant(third, email);
    await mailsBecome(email, ['user_invitation', 'user_reinvitation']);
    // The same course granted again sends no second one.
    await grant(third, email);
    await staysAt(email, ['user_invitation', 'user_reinvitation']);
  });

  it('an active learner (a viewed course) gets no reinvitation', async () => {
    const [first, second] = [await createCourse(stack.app, platform.id), await createCourse(stack.app, platform.id)];
    const email = uniqueEmail('active');
    await grant(first, email);
    await completeWhenEnrolled(email, first.sections[0]!.lessons[0]!.id);
    await mailsBecome(email, ['user_invitation']);
    await invitedDaysAgo(email, 2);
    await grant(second, email);
    await staysAt(email, ['user_invitation']);
  });
});

describe('notify_previous_users and re-planning', () => {
  it('a mail created with notify_previous_users reaches the participants already enrolled, once each; without it they get nothing', async () => {
    const course = await createCourse(stack.app, platform.id);
    const early = uniqueEmail('early');
    await grant(course, early);
    await mailsBecome(early, ['user_invitation']);
    await staysAt(early, ['user_invitation']); // its enrolment mails ran before the templates exist

    const quiet = (await createTemplate(course, { send_after: 0, subject: 'Only for new ones' })).json().data;
    const loud = (await createTemplate(course, { send_after: 0, subject: 'For everyone', notify_previous_users: true })).json().data;
    await mailsBecome(early, ['user_invitation', loud.slug]);

    const late = uniqueEmail('late');
    await grant(course, late);
    await mailsBecome(late, ['user_invitation', quiet.slug, loud.slug]);
    await staysAt(early, ['user_invitation', loud.slug]);
  });

  it('an after-lesson mail switched on with notify_previous_users reaches those already past the lesson', async () => {
    const course = await createCourse(stack.app, platform.id);
    const lesson = course.sections[0]!.lessons[1]!.id;
    const created = (await createTemplate(course, { send_after_lesson: lesson, active: false })).json().data;
    const past = uniqueEmail('past');
    const notYet = uniqueEmail('not-yet');
    await grant(course, past);
    await grant(course, notYet);
    await completeWhenEnrolled(past, lesson);
    await completeWhenEnrolled(notYet, course.sections[0]!.lessons[0]!.id);

    startedAt = new Date();
    const res = await configure(stack.app, 'PATCH', `${base(course)}/${created.slug}`, key, { active: true, notify_previous_users: true });
    expect(res.statusCode, res.body).toBe(200);
    await mailsBecome(past, ['user_invitation', created.slug]);
    await staysAt(notYet, ['user_invitation']);
  });

  it('a change of send_after re-plans the mails not yet sent', async () => {
    const course = await createCourse(stack.app, platform.id);
    const created = (await createTemplate(course, { send_after: 5 })).json().data;
    const email = uniqueEmail('replanned');
    await grant(course, email);
    await mailsBecome(email, ['user_invitation']);
    await staysAt(email, ['user_invitation']);

    expect((await configure(stack.app, 'PATCH', `${base(course)}/${created.slug}`, key, { send_after: 0 })).statusCode).toBe(200);
    await mailsBecome(email, ['user_invitation', created.slug]);
    await staysAt(email, ['user_invitation', created.slug]);
  });
});
