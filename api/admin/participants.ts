import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findParticipantByEmail } from '../../db/repositories/access/participants.ts';
import { latestMailLogEntries } from '../../db/repositories/shared/mail-log.ts';
import type { LoginLinkTemplate } from '../../domain/access/mail-template-rules.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { readParticipant } from './participants/read-participant.ts';
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
      return { data: await readParticipant(em, request.query.email) };
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
        const participant = await findParticipantByEmail(em, normalizeEmail(request.body.email));
        if (!participant) throw notFound('participant');
        await app.workflows.access.mailLoginLink(em, { platformId: platform.id, participantId: participant.id, template, requestId: once ? 'once' : randomUUID() });
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
      const entries = await latestMailLogEntries(request.em, to);
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
