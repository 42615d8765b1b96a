import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';
import { Course, Lesson } from './course.ts';

/** A platform's own copy of a default template (domain/mail-templates.ts); without one the default applies. */
export const PlatformMailTemplate = defineEntity({
  name: 'PlatformMailTemplate',
  tableName: 'platform_mail_templates',
  uniques: [{ properties: ['platform', 'slug'] }],
  ...platformOwned({
    slug: p.string().length(64),
    subject: p.string(),
    description: p.text(),
    senderName: p.string().nullable(),
    senderEmail: p.string().nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IPlatformMailTemplate = InferEntity<typeof PlatformMailTemplate>;

/**
 * A course's template: its own invitation (`course_invitation`, `course_reinvitation`, present
 * while the custom invitation is on; `customized` once edited) or a timed mail sent `sendAfter`
 * days after enrolment, or after `sendAfterLesson` is completed.
 */
export const CourseMailTemplate = defineEntity({
  name: 'CourseMailTemplate',
  tableName: 'course_mail_templates',
  uniques: [{ properties: ['course', 'slug'] }],
  indexes: [{ properties: ['sendAfterLesson'] }],
  ...platformOwned({
    course: () => p.manyToOne(Course).ref(),
    slug: p.string().length(64),
    name: p.string(),
    subject: p.string(),
    description: p.text(),
    senderName: p.string().nullable(),
    senderEmail: p.string().nullable(),
    active: p.boolean().default(true),
    sendAfter: p.integer().nullable(),
    sendAfterLesson: () => p.manyToOne(Lesson).ref().nullable(),
    notifyPreviousUsers: p.boolean().default(false),
    customized: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type ICourseMailTemplate = InferEntity<typeof CourseMailTemplate>;
