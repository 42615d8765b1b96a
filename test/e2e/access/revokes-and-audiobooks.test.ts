/** Access level rules 5-7, revokes and audiobooks, end to end through HTTP with a running worker. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createAudiobook, createCourse, createPlatform, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { settledWorkflows } from '../../helpers/http.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';

let e2e: EndToEnd;
let platform: TestPlatform;
let course: TestCourse;

beforeAll(async () => {
  e2e = await startEndToEnd('e2e-revokes');
  platform = await createPlatform(e2e.stack.app);
  course = await createCourse(e2e.stack.app, platform.id);
});
afterAll(() => e2e?.close());

const call = (method: string, path: string, body?: unknown) => e2e.http(method, path, { key: platform.apiKey, body });
const courseOf = (data: any) => data.courses.find((c: any) => c.course_id === course.id);
/** The person's command workflows: their ids carry the address's keyed hash, never the address (issue 41 item 3). */
const commandPrefix = async (email: string, command: string, item = `course/${course.id}`) =>
  `platform/${platform.id}/${item}/${await personalEmailHash(e2e.stack.orm.em.fork(), email)}/${command}/`;

async function grantAndWait(email: string, accessLevel = 0) {
  const res = await call('POST', '/api/courses/subscribe', { subscriptions: { course_id: course.id, email, access_level: accessLevel } });
  expect(res.status).toBe(200);
  await Promise.all(res.body.workflow_ids.map((id: string) => e2e.stack.temporal.workflow.getHandle(id).result()));
}

describe('DELETE /api/courses/unsubscribe', () => {
  it('withdraws level-0 access: 204, gone from the enrolment lookup, access_revoked recorded', async () => {
    const email = uniqueEmail('revoke');
    await grantAndWait(email);
    const res = await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: { course_id: course.id, email } });
    expect(res.status).toBe(204);
    await e2e.participantWhen(platform.id, email, (data) => expect(courseOf(data)?.active).toBe(false));
    expect((await call('GET', `/api/users/enrollments?email=${email}`)).body.courses).toEqual([]);
    const revoked = (await e2e.events(platform.id, 'access_revoked')).filter((e) => e.payload.participant.email === email);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.payload).toMatchObject({ resource: { type: 'course', id: course.id }, access_level: null, source: { kind: 'direct' } });
  });

  it('rule 6: level 1 is not revoked through this interface (204, access and level kept)', async () => {
    const email = uniqueEmail('premium');
    await grantAndWait(email, 1);
    expect((await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: [{ course_id: course.id, email }] })).status).toBe(204);
    const [outcome] = await settledWorkflows(e2e.stack.temporal, await commandPrefix(email, 'revoke'));
    expect(outcome).toMatchObject({ outcome: 'level_1_kept', accessLevel: 1 });
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)).toMatchObject({ active: true, access_level: 1 }));
    expect(courseOf(data).visible_lesson_ids).toHaveLength(3);
  });

  it('a revoke for someone never enrolled answers 204 and changes nothing', async () => {
    const email = uniqueEmail('stranger');
    expect((await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: { course_id: course.id, email } })).status).toBe(204);
    const [outcome] = await settledWorkflows(e2e.stack.temporal, await commandPrefix(email, 'revoke'));
    expect(outcome).toMatchObject({ outcome: 'not_enrolled' });
    expect((await e2e.http('GET', `/admin/v1/platforms/${platform.id}/participants?email=${email}`, { operator: true })).status).toBe(404);
  });

  it('a grant after a revoke restores access; the last of racing commands wins', async () => {
    const email = uniqueEmail('race');
    await grantAndWait(email);
    // Revoke then grant, sent back to back: the grant is the later command and must win.
    expect((await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: { course_id: course.id, email } })).status).toBe(204);
    await grantAndWait(email);
    await settledWorkflows(e2e.stack.temporal, await commandPrefix(email, 'revoke'));
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)?.active).toBe(true));
    expect(courseOf(data).access_level).toBe(0);
  });

  it('validates like grant: any invalid entry gives 400 {invalid_unsubscriptions} and nothing is processed', async () => {
    const email = uniqueEmail('keep');
    await grantAndWait(email);
    const bad = { course_id: '00000000-0000-4000-8000-000000000000', email };
    const res = await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: [{ course_id: course.id, email }, bad] });
    expect(res.status).toBe(400);
    expect(res.body.invalid_unsubscriptions).toEqual([bad]);
    const invalidEmail = await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: [{ course_id: course.id, email: 'nope' }] });
    expect(invalidEmail.body.invalid_unsubscriptions).toEqual([{ course_id: course.id, email: 'nope' }]);
    const missing = await call('DELETE', '/api/courses/unsubscribe', { subscriptions: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty(['body.unsubscriptions']);
    expect((await call('GET', `/api/users/enrollments?email=${email}`)).body.courses).toHaveLength(1);
  });
});

describe('audiobooks', () => {
  it('POST /api/audiobooks/subscribe answers 204, creates and invites, and grants the audiobook; unsubscribe withdraws it', async () => {
    const book = await createAudiobook(e2e.stack.app, platform.id);
    const email = uniqueEmail('listener');
    const res = await call('POST', '/api/audiobooks/subscribe', { subscriptions: { audiobook_id: book.id, email, name: 'Lis' } });
    expect(res.status).toBe(204);
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(d.audiobook_ids).toEqual([book.id]));
    expect(data).toMatchObject({ invited: true, name: 'Lis' });

    expect((await call('DELETE', '/api/audiobooks/unsubscribe', { unsubscriptions: { audiobook_id: book.id, email } })).status).toBe(204);
    await e2e.participantWhen(platform.id, email, (d) => expect(d.audiobook_ids).toEqual([]));
    const types = (await e2e.events(platform.id)).filter((e) => e.payload.participant?.email === email).map((e) => e.type);
    expect(types).toEqual(['user_registered', 'access_granted', 'access_revoked']);
  });

  it("rejects unknown audiobooks, another account's audiobooks and courses given as audiobooks", async () => {
    const other = await createPlatform(e2e.stack.app);
    const othersBook = await createAudiobook(e2e.stack.app, other.id);
    for (const audiobook_id of ['00000000-0000-4000-8000-000000000000', othersBook.id, course.id]) {
      const entry = { audiobook_id, email: uniqueEmail() };
      const res = await call('POST', '/api/audiobooks/subscribe', { subscriptions: [entry] });
      expect(res.status).toBe(400);
      expect(res.body.invalid_subscriptions).toEqual([entry]);
    }
  });
});

describe('events of grants', () => {
  it('record user_registered once and access_granted once per change, never for a repeat', async () => {
    const email = uniqueEmail('events');
    await grantAndWait(email);
    await grantAndWait(email);
    await grantAndWait(email, 1);
    const mine = (await e2e.events(platform.id)).filter((e) => e.payload.participant?.email === email);
    expect(mine.map((e) => [e.type, e.payload.access_level ?? null])).toEqual([
      ['user_registered', null],
      ['access_granted', 0],
      ['access_granted', 1],
    ]);
    expect(new Set(mine.map((e) => e.id)).size).toBe(3);
  });
});
