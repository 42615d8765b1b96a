import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ICourse, ICourseMailTemplate } from '../../../db/entities/index.ts';
import { findLessonOfCourse } from '../../../db/repositories/access/catalogue.ts';
import {
  courseInvitationDefault,
  courseInvitationDefaults,
  courseTemplatesOf,
  courseTemplateView,
  createCourseTemplate,
  deleteCourseTemplates,
  deletePlatformTemplateCopy,
  ensureCourseInvitations,
  findCourseTemplate,
  findPlatformTemplateCopy,
  platformTemplate,
  savePlatformTemplateCopy,
  updateCourseTemplate,
  type EffectiveTemplate,
} from '../../../db/repositories/access/mail-templates.ts';
import { INVITATION_SLUGS, isCourseInvitationSlug, isPlatformTemplateSlug, loginLinkTagProblem, PLATFORM_TEMPLATE_SLUGS } from '../../../domain/access/mail-template-rules.ts';
import { TEMPLATE_TAGS } from '../../../domain/access/mail-templates.ts';
import { notFound } from '../../shared/errors.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import type { CourseTemplateDetails, CourseTemplatePatch, CreateCourseTemplateBody, TemplateDetails } from './schemas.ts';
import type { RecordedStart } from '../../shared/workflow-starts/outbox.ts';

type TemplateView = z.input<typeof TemplateDetails>;
type CourseTemplateView = z.input<typeof CourseTemplateDetails>;

/** What both template routes need; the platform's templates and a course's implement it. */
export interface TemplateOwner {
  /** The course of course templates, null for the platform's. */
  courseId: string | null;
  list(): Promise<TemplateView[]>;
  get(slug: string): Promise<TemplateView>;
  update(slug: string, patch: CourseTemplatePatch): Promise<TemplateView>;
  restore(slug: string): Promise<TemplateView>;
}

const templateView = (t: EffectiveTemplate, host: string): TemplateView => ({
  slug: t.slug,
  name: t.name,
  subject: t.subject,
  tags: TEMPLATE_TAGS,
  customized: t.customized,
  host,
  sender_name: t.senderName,
  sender_email: t.senderEmail,
  description: t.description,
});

const courseView = (t: ICourseMailTemplate, host: string): CourseTemplateView => ({
  ...templateView(courseTemplateView(t), host),
  active: t.active,
  send_after: t.sendAfter ?? null,
  send_after_lesson: t.sendAfterLesson?.id ?? null,
  notify_previous_users: t.notifyPreviousUsers,
});

/** Rule 2: an invitation template keeps `{{LINK_LOGOWANIE}}` as plain text. */
function checkInvitationBody(slug: string, description: string): void {
  if (!INVITATION_SLUGS.includes(slug)) return;
  const problem = loginLinkTagProblem(description);
  if (problem) throw unprocessable({ description: [problem] });
}

/** The platform's templates: the defaults, replaced field by field by the platform's own copy. */
export function platformTemplates(em: EntityManager, platformId: string, host: string): TemplateOwner {
  const known = (slug: string) => {
    if (!isPlatformTemplateSlug(slug)) throw notFound(`e-mail template ${slug}`);
    return slug;
  };
  return {
    courseId: null,
    async list() {
      return Promise.all(PLATFORM_TEMPLATE_SLUGS.map(async (slug) => templateView(await platformTemplate(em, slug), host)));
    },
    async get(slug) {
      return templateView(await platformTemplate(em, known(slug)), host);
    },
    async update(slug, patch) {
      const current = await platformTemplate(em, known(slug));
      const next = {
        subject: patch.subject ?? current.subject,
        description: patch.description ?? current.description,
        senderName: patch.sender_name === undefined ? current.senderName : patch.sender_name,
        senderEmail: patch.sender_email === undefined ? current.senderEmail : patch.sender_email,
      };
      checkInvitationBody(slug, next.description);
      // The first change makes the platform's own copy; the default stays as it is for everyone else.
      const sent = { subject: patch.subject, description: patch.description, senderName: patch.sender_name, senderEmail: patch.sender_email };
      const changed = (Object.keys(sent) as (keyof typeof sent)[]).filter((field) => sent[field] !== undefined);
      await savePlatformTemplateCopy(em, platformId, slug, next, changed);
      return templateView(await platformTemplate(em, slug), host);
    },
    async restore(slug) {
      const copy = await findPlatformTemplateCopy(em, known(slug));
      if (!copy) throw notFound(`a customized copy of ${slug}`);
      await deletePlatformTemplateCopy(em, copy);
      return templateView(await platformTemplate(em, slug), host);
    },
  };
}

async function checkLessonOfCourse(em: EntityManager, courseId: string, lessonId: string | null | undefined): Promise<void> {
  if (!lessonId) return;
  const lesson = await findLessonOfCourse(em, courseId, lessonId);
  if (!lesson) throw unprocessable({ send_after_lesson: ['must be a lesson of this course'] });
}

const TIMED_ONLY_FIELDS = ['send_after', 'send_after_lesson', 'notify_previous_users'] as const;

/**
 * A course's templates: its own invitation pair while the custom invitation is on, and the timed
 * mails created for it. Timed mails have no default: they are never `customized` and cannot be restored.
 */
/**
 * A timed mail to roll out to the participants it is still owed to (workflows/access/course-mail-rollout.ts):
 * `record` in the template change's transaction (the outbox), `start` once it committed.
 */
export interface CourseMailRollout {
  record(em: EntityManager, change: { templateId: string; notifyPrevious: boolean }): Promise<RecordedStart>;
  start(recorded: RecordedStart | null): Promise<void>;
}

export function courseTemplates(em: EntityManager, platformId: string, course: ICourse, host: string, rollout: CourseMailRollout) {
  /** The template's change and its rollout (when `rolledOut` says so after the change) commit together. */
  const changeAndRollOut = async (change: (tx: EntityManager) => Promise<ICourseMailTemplate>, rolledOut: (template: ICourseMailTemplate) => boolean) => {
    const recorded = await em.transactional(async (tx) => {
      const template = await change(tx);
      return rolledOut(template) ? rollout.record(tx, { templateId: template.id, notifyPrevious: template.notifyPreviousUsers }) : null;
    });
    await rollout.start(recorded);
  };

  const find = async (slug: string) => {
    const template = await findCourseTemplate(em, course.id, slug);
    if (!template) throw notFound(`e-mail template ${slug} of this course`);
    return template;
  };
  const list = async () =>
    (await courseTemplatesOf(em, course.id)).map((t) => courseView(t, host));

  const owner = {
    courseId: course.id,
    list,
    async get(slug: string) {
      return courseView(await find(slug), host);
    },
    async update(slug: string, patch: CourseTemplatePatch) {
      const template = await find(slug);
      const invitation = isCourseInvitationSlug(template.slug);
      const misplaced = invitation ? TIMED_ONLY_FIELDS.filter((field) => patch[field] !== undefined) : [];
      if (misplaced.length > 0) throw unprocessable(Object.fromEntries(misplaced.map((f) => [f, ['applies to timed course mails only']])));
      checkInvitationBody(template.slug, patch.description ?? template.description);
      await checkLessonOfCourse(em, course.id, patch.send_after_lesson);
      const sendAfter = patch.send_after !== undefined ? patch.send_after : template.sendAfter;
      const sendAfterLesson = patch.send_after_lesson !== undefined ? patch.send_after_lesson : template.sendAfterLesson;
      if (!invitation && (sendAfter ?? null) === null && (sendAfterLesson ?? null) === null) {
        throw unprocessable({ send_after: ['a timed course mail needs send_after or send_after_lesson'] });
      }

      const contentChanged = (['subject', 'description', 'sender_name', 'sender_email'] as const).some((f) => patch[f] !== undefined);
      const before = { active: template.active, notify: template.notifyPreviousUsers, sendAfter: template.sendAfter ?? null, lesson: template.sendAfterLesson?.id ?? null };
      await changeAndRollOut(async (tx) => {
        await updateCourseTemplate(tx, template, {
          ...(patch.subject !== undefined && { subject: patch.subject }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.sender_name !== undefined && { senderName: patch.sender_name }),
          ...(patch.sender_email !== undefined && { senderEmail: patch.sender_email }),
          ...(patch.active !== undefined && { active: patch.active }),
          ...(patch.send_after !== undefined && { sendAfter: patch.send_after }),
          ...(patch.send_after_lesson !== undefined && { sendAfterLesson: patch.send_after_lesson }),
          ...(patch.notify_previous_users !== undefined && { notifyPreviousUsers: patch.notify_previous_users }),
          ...(invitation && contentChanged && { customized: true }),
        });
        return template;
      }, (changed) => {
        // notify_previous_users acts when the mail is switched on with it (either flag turning on);
        // a new timing re-plans what is not sent yet, for the participants the mail is owed to.
        const retimed = before.sendAfter !== (changed.sendAfter ?? null) || before.lesson !== (changed.sendAfterLesson?.id ?? null);
        const notifyNow = changed.notifyPreviousUsers && (!before.active || !before.notify);
        return !invitation && changed.active && (retimed || notifyNow);
      });
      return courseView(template, host);
    },
    async restore(slug: string) {
      const template = await find(slug);
      if (!template.customized) throw notFound(`a customized copy of ${slug}`);
      const { subject, description } = courseInvitationDefault(template.slug);
      await updateCourseTemplate(em, template, { subject, description, senderName: null, senderEmail: null, customized: false });
      return courseView(template, host);
    },
  } satisfies TemplateOwner;

  return {
    ...owner,

    /** `POST /courses/:course_id/email_templates`: a mail sent after a lesson, or `send_after` days after enrolment. */
    async create(body: CreateCourseTemplateBody): Promise<CourseTemplateView> {
      await checkLessonOfCourse(em, course.id, body.send_after_lesson);
      const id = randomUUID();
      let created!: ICourseMailTemplate;
      await changeAndRollOut(async (tx) => {
        created = await createCourseTemplate(tx, {
          id,
          platform: platformId,
          course: course.id,
          slug: `${body.send_after_lesson ? 'after_lesson' : 'after_enrolment'}_${id.slice(0, 8)}`,
          name: body.name ?? (body.send_after_lesson ? 'Sent after a lesson' : `Sent ${body.send_after} days after enrolment`),
          subject: body.subject,
          description: body.description,
          senderName: body.sender_name ?? null,
          senderEmail: body.sender_email ?? null,
          active: body.active,
          sendAfter: body.send_after ?? null,
          sendAfterLesson: body.send_after_lesson ?? null,
          notifyPreviousUsers: body.notify_previous_users,
        });
        return created;
      }, (template) => template.active && template.notifyPreviousUsers);
      return courseView(created, host);
    },

    /** On: the course's own `course_invitation` and `course_reinvitation` exist (default text); off: they are removed. */
    async setCustomInvitation(enabled: boolean): Promise<{ enabled: boolean; templates: CourseTemplateView[] }> {
      const existing = await courseTemplatesOf(em, course.id, courseInvitationDefaults().map((t) => t.slug));
      if (enabled) {
        await ensureCourseInvitations(em, platformId, course.id);
      } else {
        await deleteCourseTemplates(em, existing);
      }
      const templates = (await list()).filter((t) => isCourseInvitationSlug(t.slug));
      return { enabled, templates };
    },
  };
}
