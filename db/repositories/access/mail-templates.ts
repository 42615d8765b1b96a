import type { EntityData, RequiredEntityData } from '@mikro-orm/core';
import type { Sql } from '../shared/pooled-transaction.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { COURSE_INVITATION_SLUGS } from '../../../domain/access/mail-template-rules.ts';
import { DEFAULT_TEMPLATES, type MailTemplate } from '../../../domain/access/mail-templates.ts';
import { CourseMailTemplate, PlatformMailTemplate, type ICourseMailTemplate, type IPlatformMailTemplate } from '../../entities/index.ts';
import { insertRow } from '../shared/insert-row.ts';

/**
 * Which template text a mail uses: a course's own template, else the platform's copy, else the
 * default. Used by the configuration interface (reads) and by the mail activities (sends); the
 * entity manager must be scoped to the platform.
 */
export interface EffectiveTemplate {
  slug: string;
  name: string;
  subject: string;
  description: string;
  senderName: string | null;
  senderEmail: string | null;
  customized: boolean;
}

function defaultOf(slug: string): MailTemplate {
  const template = DEFAULT_TEMPLATES[slug];
  if (!template) throw new Error(`no default mail template ${slug}`);
  return template;
}

/** The platform's template: its own copy merged over the default. */
export async function platformTemplate(em: EntityManager, slug: string): Promise<EffectiveTemplate> {
  return platformTemplateView(slug, await em.findOne(PlatformMailTemplate, { slug }));
}

/** The platform's copy (if it has one) merged over the default. */
function platformTemplateView(slug: string, copy: { subject: string; description: string; senderName?: string | null; senderEmail?: string | null } | null): EffectiveTemplate {
  const base = defaultOf(slug);
  return {
    slug,
    name: base.name,
    subject: copy?.subject ?? base.subject,
    description: copy?.description ?? base.description,
    senderName: copy?.senderName ?? null,
    senderEmail: copy?.senderEmail ?? null,
    customized: copy !== null,
  };
}

export function courseTemplateView(template: ICourseMailTemplate): EffectiveTemplate {
  return {
    slug: template.slug,
    name: template.name,
    subject: template.subject,
    description: template.description,
    senderName: template.senderName ?? null,
    senderEmail: template.senderEmail ?? null,
    customized: template.customized,
  };
}

/** The course's own invitation templates, in the default text, for `custom_invitation: {enabled: true}`. */
export function courseInvitationDefaults(): Pick<ICourseMailTemplate, 'slug' | 'name' | 'subject' | 'description'>[] {
  return COURSE_INVITATION_SLUGS.map((slug) => {
    const { name, subject, description } = defaultOf(slug);
    return { slug, name, subject, description };
  });
}

/** The text a course's invitation template goes back to on restore. */
export function courseInvitationDefault(slug: string): Pick<MailTemplate, 'subject' | 'description'> {
  return defaultOf(slug);
}

/**
 * The invitation of a participant created by a grant: the course's own active `course_invitation`
 * when its custom invitation is on, else the platform's `user_invitation`.
 */
export async function newParticipantInvitation(em: Sql, platformId: string, courseId: string | null): Promise<EffectiveTemplate> {
  // One statement on a grant's path: the course's own active invitation, and the platform's copy.
  const rows: (TemplateRow & { own: boolean })[] = await em.execute(
    `(select true as own, slug, name, subject, description, sender_name, sender_email, customized
        from course_mail_templates where platform_id = ? and course_id = ? and slug = 'course_invitation' and active)
     union all
     (select false, slug, null, subject, description, sender_name, sender_email, true
        from platform_mail_templates where platform_id = ? and slug = 'user_invitation')`,
    [platformId, courseId, platformId],
  );
  const own = rows.find((row) => row.own);
  if (own) return { slug: own.slug, name: own.name!, subject: own.subject, description: own.description, senderName: own.sender_name, senderEmail: own.sender_email, customized: own.customized };
  const copy = rows[0];
  return platformTemplateView('user_invitation', copy ? { ...copy, senderName: copy.sender_name, senderEmail: copy.sender_email } : null);
}

interface TemplateRow {
  slug: string;
  name: string | null;
  subject: string;
  description: string;
  sender_name: string | null;
  sender_email: string | null;
  customized: boolean;
}

/**
 * What an existing participant given access to a course gets: the course's own active
 * `course_reinvitation` when its custom invitation is on; nothing otherwise.
 */
export async function existingParticipantInvitation(em: EntityManager, courseId: string): Promise<EffectiveTemplate | null> {
  const own = await em.findOne(CourseMailTemplate, { course: courseId, slug: 'course_reinvitation', active: true });
  return own ? courseTemplateView(own) : null;
}

export interface PlatformTemplateFields {
  subject: string;
  description: string;
  senderName: string | null;
  senderEmail: string | null;
}

/**
 * Saves the platform's own copy of a template: the first change makes it with `fields`, a later
 * one changes only the fields in `changed`. One `insert ... on conflict do update`, so concurrent
 * first changes make one copy (never a duplicate-key error) and concurrent changes of different
 * fields all stay.
 */
export async function savePlatformTemplateCopy(
  em: EntityManager,
  platformId: string,
  slug: string,
  fields: PlatformTemplateFields,
  changed: readonly (keyof PlatformTemplateFields)[],
): Promise<void> {
  const insert = em
    .createQueryBuilder(PlatformMailTemplate)
    .insert({ id: randomUUID(), platform: platformId, slug, ...fields, updatedAt: new Date() })
    .onConflict(['platform', 'slug']);
  await (changed.length > 0 ? insert.merge([...changed, 'updatedAt']) : insert.ignore()).execute();
  // The identity map may hold the copy as it was read before.
  await em.findOne(PlatformMailTemplate, { slug }, { refresh: true });
}

/**
 * Gives a course its own invitation templates (default text) where it has none yet:
 * `on conflict do nothing`, so concurrent requests make each template once.
 */
export async function ensureCourseInvitations(em: EntityManager, platformId: string, courseId: string): Promise<void> {
  const now = new Date();
  const rows = courseInvitationDefaults().map((template) => ({
    id: randomUUID(),
    platform: platformId,
    course: courseId,
    ...template,
    senderName: null,
    senderEmail: null,
    active: true,
    customized: false,
    notifyPreviousUsers: false,
    createdAt: now,
    updatedAt: now,
  }));
  await em.createQueryBuilder(CourseMailTemplate).insert(rows).onConflict(['course', 'slug']).ignore().execute();
}

/** The platform's own copy of a template, or null while it uses the default. */
export function findPlatformTemplateCopy(em: EntityManager, slug: string): Promise<IPlatformMailTemplate | null> {
  return em.findOne(PlatformMailTemplate, { slug });
}

/** One of the course's own templates, or null. */
export function findCourseTemplate(em: EntityManager, courseId: string, slug: string): Promise<ICourseMailTemplate | null> {
  return em.findOne(CourseMailTemplate, { course: courseId, slug });
}

/** The course's own templates, oldest first; only those with the given slugs when `slugs` is given. */
export function courseTemplatesOf(em: EntityManager, courseId: string, slugs?: readonly string[]): Promise<ICourseMailTemplate[]> {
  return em.find(CourseMailTemplate, slugs ? { course: courseId, slug: { $in: [...slugs] } } : { course: courseId }, { orderBy: { createdAt: 'asc', slug: 'asc' } });
}

/** Drops the platform's own copy of a template: the default applies again. */
export async function deletePlatformTemplateCopy(em: EntityManager, copy: IPlatformMailTemplate): Promise<void> {
  await em.remove(copy).flush();
}

/** A timed course mail (made by its course's templates route). */
export function createCourseTemplate(em: EntityManager, values: RequiredEntityData<ICourseMailTemplate>): Promise<ICourseMailTemplate> {
  return insertRow(em, CourseMailTemplate, values);
}

/** Writes the fields given to a course template. */
export async function updateCourseTemplate(em: EntityManager, template: ICourseMailTemplate, values: EntityData<ICourseMailTemplate>): Promise<void> {
  em.assign(template, values);
  await em.flush();
}

/** Removes these course templates (the custom invitation switched off). */
export async function deleteCourseTemplates(em: EntityManager, templates: readonly ICourseMailTemplate[]): Promise<void> {
  templates.forEach((template) => em.remove(template));
  await em.flush();
}

/** The course's template with this id while it is active, or null. */
export function findActiveCourseTemplate(em: EntityManager, courseId: string, templateId: string): Promise<ICourseMailTemplate | null> {
  return em.findOne(CourseMailTemplate, { id: templateId, course: courseId, active: true });
}

/** The course's templates timed from a trigger: after `lessonId`, or (null) days after the enrolment. */
export function courseTemplatesTimedFrom(em: EntityManager, courseId: string, lessonId: string | null): Promise<ICourseMailTemplate[]> {
  return em.find(CourseMailTemplate, lessonId ? { course: courseId, sendAfterLesson: lessonId } : { course: courseId, sendAfterLesson: null, sendAfter: { $ne: null } });
}
