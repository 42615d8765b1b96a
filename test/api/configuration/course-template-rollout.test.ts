import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseTemplates, type CourseMailRollout } from '../../../api/configuration/email-templates/owners.ts';
import { findCourseByIdOrSlug } from '../../../db/repositories/access/catalogue.ts';
import { courseTemplatesOf } from '../../../db/repositories/access/mail-templates.ts';
import { TENANT_FILTER } from '../../../db/tenant.ts';
import { createCourse, createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * A course mail's change and the record of its rollout commit together (issue 41 item 2): when
 * the rollout cannot be recorded, the template is left as it was, so no change goes out without
 * the rollout that owes it to the participants.
 */
let stack: TestStack;
let platform: TestPlatform;

beforeAll(async () => {
  stack = await startTestApp('configuration-course-template-rollout');
  platform = await createPlatform(stack.app, 'Rollout academy');
});
afterAll(() => stack?.close());

const refusingOutbox = (): CourseMailRollout & { started: number } => {
  const rollout = {
    started: 0,
    record: async () => {
      throw new Error('the outbox refused the row');
    },
    start: async () => {
      rollout.started += 1;
    },
  };
  return rollout;
};

/** A fresh entity manager scoped to the platform, as a request's is. */
const platformEm = () => {
  const em = stack.orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { platformId: platform.id });
  return em;
};

async function templatesOf(courseId: string) {
  const em = platformEm();
  const course = (await findCourseByIdOrSlug(em, { id: courseId }))!;
  const rollout = refusingOutbox();
  return { owner: courseTemplates(em, platform.id, course, 'academy.test', rollout), rollout, stored: () => courseTemplatesOf(platformEm(), courseId) };
}

describe('a course mail and its rollout', () => {
  it('a new active mail with notify_previous_users is not created when its rollout is not recorded', async () => {
    const course = await createCourse(stack.app, platform.id);
    const { owner, rollout, stored } = await templatesOf(course.id);
    const before = (await stored()).length;
    await expect(owner.create({ subject: 'News', description: '<p>Hi</p>', active: true, send_after: 2, notify_previous_users: true })).rejects.toThrow('the outbox refused the row');
    expect((await stored()).length).toBe(before);
    expect(rollout.started).toBe(0);
  });

  it('a new timing is not saved when its rollout is not recorded; a change that needs none is', async () => {
    const course = await createCourse(stack.app, platform.id);
    const { owner: setup } = await templatesOf(course.id);
    // Created inactive: nothing to roll out, so the refusing outbox is never asked.
    const created = await setup.create({ subject: 'News', description: '<p>Hi</p>', active: false, send_after: 2, notify_previous_users: false });
    const { owner, stored } = await templatesOf(course.id);
    await expect(owner.update(created.slug, { active: true, send_after: 5 })).rejects.toThrow('the outbox refused the row');
    expect((await stored()).find((t) => t.slug === created.slug)).toMatchObject({ active: false, sendAfter: 2 });
    await owner.update(created.slug, { subject: 'Renamed' });
    expect((await stored()).find((t) => t.slug === created.slug)).toMatchObject({ subject: 'Renamed', active: false });
  });
});
