import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AudiobookAccess, Enrolment, MailLogEntry, Participant, Section } from '../../db/entities/index.ts';
import type { LoginLinkTemplate } from '../../domain/access/mail-template-rules.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import { visibleLessonIds } from '../../domain/access/access-level.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { usePlatform } from './platform-scope.ts';
import { EmailQuery, MailLogQuery, MailLogReply, ParticipantReply, PlatformParams, ReinviteBody, LoginLinkMailReply, data } from './schemas.ts';

/** Operator views of participants and of the mail they were sent. */
export const participantAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/platforms/:platform_id/participants',
    { schema: { operationId: 'admin.platforms.participants.list', summary: 'Lists the platform\'s participants', params: PlatformParams, querystring: EmailQuery, response: { 200: data(ParticipantReply), 400: ValidationErrorBody, 404: ErrorBody } } },
    async (request) => {
      const { em } = request;
      await usePlatform(em, request.params.platform_id);
      const participant = await em.findOne(Participant, { email: normalizeEmail(request.query.email) });
      if (!participant) throw notFound('participant');

      // Rows a revoke created only to remember its order (never granted) are not enrolments.
      const enrolments = await em.find(Enrolment, { participant, $or: [{ active: true }, { grantedSeq: { $gt: 0 } }] }, { orderBy: { startedAt: 'asc' } });
      const courseIds = enrolments.map((e) => e.course.id);
      const sections = courseIds.length
        ? await em.find(Section, { course: { $in: courseIds } }, { populate: ['lessons'], orderBy: { position: 'asc' } })
        : [];
      const audiobooks = await em.find(AudiobookAccess, { participant, active: true }, { orderBy: { grantedAt: 'asc' } });

      return {
        data: {
          email: participant.email,
          name: participant.name ?? null,
          invited: participant.invitedAt != null,
          courses: enrolments.map((e) => ({
            course_id: e.course.id,
            access_level: e.accessLevel,
            active: e.active,
            viewed_at: e.viewedAt?.toISOString() ?? null,
            visible_lesson_ids: e.active
              ? visibleLessonIds(
                  e.accessLevel as AccessLevel,
                  sections
                    .filter((s) => s.course.id === e.course.id)
                    .map((s) => ({ accessLevel: s.accessLevel, lessonIds: s.lessons.getItems().map((l) => l.id) })),
                )
              : [],
          })),
          audiobook_ids: audiobooks.map((a) => a.audiobook.id),
        },
      };
    },
  );

  /**
   * An operator action that mails the participant a platform template with a fresh login link.
   * `once`: the action happens once per participant (a repeat joins the first and sends nothing);
   * otherwise every request sends anew.
   */
  const loginLinkAction = (path: string, template: LoginLinkTemplate, once: boolean, summary: string, description: string) =>
    app.post(
      `/platforms/:platform_id/participants/${path}`,
      { schema: { operationId: `admin.platforms.participants.${path}`, summary, description, params: PlatformParams, body: ReinviteBody, response: { 202: data(LoginLinkMailReply), 400: ValidationErrorBody, 404: ErrorBody } } },
      async (request, reply) => {
        const { em } = request;
        const platform = await usePlatform(em, request.params.platform_id);
        const participant = await em.findOne(Participant, { email: normalizeEmail(request.body.email) });
        if (!participant) throw notFound('participant');
        await app.workflows.mailLoginLink({ platformId: platform.id, participantId: participant.id, template, requestId: once ? 'once' : randomUUID() });
        return reply.code(202).send({ data: { email: participant.email, template } });
      },
    );

  loginLinkAction(
    'reinvite',
    'user_reinvitation',
    false,
    'Re-sends the invitation with a fresh login link',
    "Resends the invitation: the platform's `user_reinvitation` with a fresh login link (the previous link stops working). 202: queued; 404 for an unknown participant.",
  );
  loginLinkAction(
    'community_access',
    'community_access_granted',
    true,
    'Records community access and mails the participant',
    "Records that the panel's community gave the participant access and sends `community_access_granted` with a fresh login link, once per participant (a repeat is 202 and sends nothing). 404 for an unknown participant.",
  );

  app.get(
    '/platforms/:platform_id/emails',
    { schema: { operationId: 'admin.platforms.emails.list', summary: 'Lists the platform\'s mail log', params: PlatformParams, querystring: MailLogQuery, response: { 200: data(MailLogReply), 404: ErrorBody } } },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      const to = request.query.to ? normalizeEmail(request.query.to) : undefined;
      const entries = await request.em.find(MailLogEntry, to ? { to } : {}, { orderBy: { sentAt: 'desc' }, limit: 500 });
      return {
        data: entries.map((m) => ({
          to: m.to,
          template: m.template,
          subject: m.subject,
          html: m.html,
          sent_at: m.sentAt.toISOString(),
          provider: m.provider ?? null,
          status: m.status,
          delivered_at: m.deliveredAt?.toISOString() ?? null,
          attempts: m.attempts,
          last_error: m.lastError ?? null,
        })),
      };
    },
  );
};
