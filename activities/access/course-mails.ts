import type { EntityManager } from '@mikro-orm/postgresql';
import { findCourse } from '../../db/repositories/access/catalogue.ts';
import { courseMailTriggersNotMailed } from '../../db/repositories/access/course-mail-recipients.ts';
import { findActiveEnrolment } from '../../db/repositories/access/enrolments.ts';
import { findLessonCompletion } from '../../db/repositories/access/lesson-completions.ts';
import {
  courseTemplatesTimedFrom,
  courseTemplateView,
  existingParticipantInvitation,
  findActiveCourseTemplate,
  findCourseTemplate,
  platformTemplate,
  type EffectiveTemplate,
} from '../../db/repositories/access/mail-templates.ts';
import { participantOf } from '../../db/repositories/access/participants.ts';
import { platformOf } from '../../db/repositories/access/platforms.ts';
import { invitationAnswer } from '../../db/repositories/access/participant-activity.ts';
import { courseMailPlan, DAY_MS, type PlannedMail } from '../../domain/access/course-mail-schedule.ts';
import { isCourseInvitationSlug } from '../../domain/access/mail-template-rules.ts';
import type { MailTags } from '../../domain/access/mail-templates.ts';
import { platformLoginUrl } from '../../domain/access/platform-url.ts';
import { owesReinvitation } from '../../domain/access/reinvitation.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { sendMail, type QueuedMail } from '../mail/render.ts';
import { tenantEm } from '../../db/repositories/shared/tenant-em.ts';
import { mailFreshLoginLink } from './participants.ts';

export interface CourseMailTarget {
  platformId: string;
  courseId: string;
  participantId: string;
}

export interface PlanCourseMailsInput extends CourseMailTarget {
  /** Absent: mails timed from the enrolment; present: mails sent after this lesson. */
  lessonId?: string | null;
}

export interface CourseMailRolloutInput {
  platformId: string;
  courseId: string;
  templateId: string;
  /** Participants enrolled (or past the lesson) before the template was created get it too. */
  notifyPrevious: boolean;
  /** One rollout per change of the template (creation, switch-on, timing). */
  revision: string;
}

export interface RolloutRecipient {
  participantId: string;
  delayMs: number;
}

export interface SendTestMailInput {
  platformId: string;
  courseId: string | null;
  slug: string;
  to: string;
  /** Makes a retried activity record the test mail once. */
  requestId: string;
}

/** `sent`: this call recorded the mail; `mailId`: the mail still to deliver (workflows/mail-delivery.ts). */
export interface MailOutcome {
  sent: boolean;
  mailId?: string | null;
}

const outcome = (queued: QueuedMail): MailOutcome => ({ sent: queued.recorded, mailId: queued.mailId });

interface TagSource {
  platformId: string;
  participantId?: string;
  courseId?: string | null;
}

/** The values of a mail's tags; a test mail has no participant and uses sample values. */
async function tagsFor(em: EntityManager, urlTemplate: string, { platformId, participantId, courseId }: TagSource): Promise<MailTags> {
  const platform = await platformOf(em, platformId);
  const participant = participantId ? await participantOf(em, participantId) : null;
  const course = courseId ? await findCourse(em, courseId) : null;
  return {
    loginLink: platformLoginUrl(urlTemplate, platform.subdomain),
    participantName: participant ? (participant.name ?? participant.email) : 'Test participant',
    participantEmail: participant?.email ?? '',
    platformTitle: platform.title,
    courseTitle: course?.title ?? platform.title,
  };
}

/** Course mails: the course's own reinvitation, timed mails after enrolment or a lesson, test mails. */
export function courseMailActivities({ orm, platformUrlTemplate, now = () => new Date() }: ActivityDeps) {
  const mailParticipant = async (em: EntityManager, target: CourseMailTarget, template: EffectiveTemplate, dedupeKey: string) => {
    const participant = await participantOf(em, target.participantId);
    const tags = await tagsFor(em, platformUrlTemplate, target);
    return sendMail(em, { platformId: target.platformId, to: participant.email, template, tags, dedupeKey, now: now() });
  };

  return {
    /** The course's active timed mails for this trigger, with the delay until each is due. */
    async planCourseMails({ platformId, courseId, participantId, lessonId }: PlanCourseMailsInput): Promise<PlannedMail[]> {
      const em = tenantEm(orm, platformId);
      const enrolment = await findActiveEnrolment(em, participantId, courseId);
      if (!enrolment) return [];
      const completion = lessonId ? await findLessonCompletion(em, participantId, lessonId) : null;
      if (lessonId && !completion) return [];
      const templates = await courseTemplatesTimedFrom(em, courseId, lessonId ?? null);
      const timed = templates
        .filter((t) => !isCourseInvitationSlug(t.slug))
        .map((t) => ({ id: t.id, active: t.active, sendAfterDays: t.sendAfter ?? null }));
      return courseMailPlan(timed, completion?.completedAt ?? enrolment.startedAt, now());
    },

    /**
     * The participants a timed mail is still owed to after a change of the template (creation,
     * switch-on, `send_after` or lesson): active enrolments (`send_after`) or completions of its
     * lesson, from the template's creation on, or all of them with `notifyPrevious`; without a
     * mail under its dedupe key yet; with the delay until each is due by the template's timing now.
     */
    async courseMailRecipients({ platformId, courseId, templateId, notifyPrevious }: CourseMailRolloutInput): Promise<{ lessonId: string | null; recipients: RolloutRecipient[] }> {
      const em = tenantEm(orm, platformId);
      const template = await findActiveCourseTemplate(em, courseId, templateId);
      const lessonId = template?.sendAfterLesson?.id ?? null;
      if (!template || isCourseInvitationSlug(template.slug) || (!lessonId && template.sendAfter == null)) return { lessonId, recipients: [] };
      const since = notifyPrevious ? new Date(0) : template.createdAt;
      const rows = await courseMailTriggersNotMailed(em, { platformId, courseId, templateId, lessonId, since });
      const dueIn = (at: Date) => Math.max(0, new Date(at).getTime() + (template.sendAfter ?? 0) * DAY_MS - now().getTime());
      return { lessonId, recipients: rows.map((r) => ({ participantId: r.participant_id, delayMs: dueIn(r.triggered_at) })).sort((a, b) => a.delayMs - b.delayMs) };
    },

    /**
     * Sends one timed mail when its template is still active, still timed from this trigger (the
     * enrolment, or `lessonId`) and due by its timing now, and the enrolment is still active; once
     * per participant. A mail whose timing changed meanwhile is left to the rollout of that change.
     */
    async sendCourseMail({ platformId, courseId, participantId, templateId, lessonId }: CourseMailTarget & { templateId: string; lessonId?: string | null }): Promise<MailOutcome> {
      const em = tenantEm(orm, platformId);
      const template = await findActiveCourseTemplate(em, courseId, templateId);
      const enrolment = await findActiveEnrolment(em, participantId, courseId);
      if (!template || !enrolment) return { sent: false, mailId: null };
      if (lessonId !== undefined && (template.sendAfterLesson?.id ?? null) !== (lessonId ?? null)) return { sent: false, mailId: null };
      const completion = lessonId ? await findLessonCompletion(em, participantId, lessonId) : null;
      const triggeredAt = lessonId ? completion?.completedAt : enrolment.startedAt;
      // A second of slack: the workflow's timer and this clock are not the same clock.
      if (!triggeredAt || triggeredAt.getTime() + (template.sendAfter ?? 0) * DAY_MS > now().getTime() + 1000) return { sent: false, mailId: null };
      const target = { platformId, courseId, participantId };
      return outcome(await mailParticipant(em, target, courseTemplateView(template), `course-mail/${templateId}/${participantId}`));
    },

    /**
     * An existing participant given a course: the course's own `course_reinvitation` when its
     * custom invitation is on; otherwise, when the invitation went unanswered (domain/access/
     * reinvitation.ts), the platform's `user_reinvitation` with a fresh login link, once per
     * course. An active learner gets nothing here.
     */
    async sendCourseReinvitation(target: CourseMailTarget): Promise<MailOutcome> {
      const em = tenantEm(orm, target.platformId);
      const template = await existingParticipantInvitation(em, target.courseId);
      if (template) return outcome(await mailParticipant(em, target, template, `${template.slug}/${target.courseId}/${target.participantId}`));
      if (!owesReinvitation({ ...(await invitationAnswer(em, target.participantId)), now: now() })) return { sent: false, mailId: null };
      return em.transactional((tx) =>
        mailFreshLoginLink(tx, { platformUrlTemplate, now }, { ...target, dedupeKey: `reinvitation/${target.participantId}/course/${target.courseId}` }),
      );
    },

    /** `send_test`: the template as saved, with sample values, to the administrator's address. */
    async sendTestMail({ platformId, courseId, slug, to, requestId }: SendTestMailInput): Promise<MailOutcome> {
      const em = tenantEm(orm, platformId);
      const own = courseId ? await findCourseTemplate(em, courseId, slug) : null;
      const template: EffectiveTemplate = own ? courseTemplateView(own) : await platformTemplate(em, slug);
      const queued = await sendMail(em, {
        platformId,
        to,
        template,
        tags: await tagsFor(em, platformUrlTemplate, { platformId, courseId }),
        dedupeKey: `test/${slug}/${requestId}`,
        now: now(),
      });
      return outcome(queued);
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<CourseMailActivities>(profile)` (workflows/shared/activities-of.ts). */
export type CourseMailActivities = ReturnType<typeof courseMailActivities>;
