import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { createHash, randomBytes } from 'node:crypto';
import { platformLoginUrl } from '../../domain/access/platform-url.ts';
import type { LoginLinkTemplate } from '../../domain/access/mail-template-rules.ts';
import { newParticipantInvitation, platformTemplate } from '../../db/repositories/access/mail-templates.ts';
import { invitationDedupeKey, lockInvitationFacts, markInvitedWithFacts, upsertParticipant } from '../../db/repositories/access/onboarding.ts';
import { lockParticipant } from '../../db/repositories/access/participants.ts';
import { platformOf } from '../../db/repositories/access/platforms.ts';
import { hasMailUnderKey, mailAwaitingDelivery } from '../../db/repositories/shared/mail-log.ts';
import { userRegistered, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { recordEvents } from '../shared/events.ts';
import { sendMail, type HeldClaim } from '../mail/render.ts';
import { tenantEm } from '../../db/repositories/shared/tenant-em.ts';

export interface EnsureParticipantInput {
  platformId: string;
  email: string;
  name?: string | null;
}

export interface EnsuredParticipant {
  participantId: string;
  invited: boolean;
  /** The participant's invitation (whoever recorded it) as the upsert's snapshot shows it. */
  invitation: { id: string; awaiting: boolean } | null;
  /** `user_registered` when this call created the participant. */
  events: RecordedDomainEvent[];
}

export interface SendInvitationInput {
  platformId: string;
  participantId: string;
  courseId?: string | null;
}

export interface SendLoginLinkMailInput {
  platformId: string;
  participantId: string;
  template: LoginLinkTemplate;
  /** One operator request: its mail is recorded once, however often the activity runs. */
  requestId: string;
}

export function participantActivities({ orm, platformUrlTemplate, now = () => new Date() }: ActivityDeps) {
  return {
    /**
     * An operator action's mail (`user_reinvitation`, `community_access_granted`) with a fresh
     * login link; the new token replaces the previous one (an older link stops working). Once per
     * request: a retry after the commit finds the request's mail and sends no second link.
     */
    async sendLoginLinkMail({ platformId, participantId, template, requestId }: SendLoginLinkMailInput): Promise<{ sent: boolean; mailId?: string | null }> {
      const dedupeKey = template === 'user_reinvitation' ? `reinvitation/${participantId}/${requestId}` : `${template}/${participantId}/${requestId}`;
      return tenantEm(orm, platformId).transactional((em) =>
        mailFreshLoginLink(em, { platformUrlTemplate, now }, { platformId, participantId, template, dedupeKey }),
      );
    },
  };
}

/**
 * Creates the participant when absent, recording `user_registered` under `operationKey` (a retry
 * after the commit finds the participant and returns the same event). Safe under concurrency: two
 * grants for a new e-mail both land on the same row (unique platform + e-mail), which stays locked
 * to the end of the caller's transaction.
 */
export async function ensureParticipantIn(tx: Sql, { platformId, email, name }: EnsureParticipantInput, operationKey?: string): Promise<EnsuredParticipant> {
  const row = await upsertParticipant(tx, platformId, email, name ?? null);
  if (!row) throw ApplicationFailure.nonRetryable(`participant ${email} could not be created`);
  const registered = row.created ? [userRegistered({ id: row.id, email, name: row.name })] : [];
  const events = await recordEvents(tx, platformId, registered, operationKey);
  return { participantId: row.id, invited: row.invited_at !== null, invitation: row.invitation, events };
}

/**
 * Sends the invitation once per participant, in the caller's platform-scoped transaction: the
 * course's own `course_invitation` when its custom invitation is on, else the platform's
 * `user_invitation`. The participant row is locked, so concurrent grants serialise and only the
 * first one records it (in a grant the upsert has locked the row already: this check is the
 * guard for any other caller). The mail is recorded as pending, and `mailId` goes to its first
 * delivery attempt (workflows/shared/steps/deliver-mail.ts); or, with `claimForSending`, as
 * claimed for the caller's own first attempt after its commit (`claimed`). `newMailId`: the id
 * the caller names it by (`operationMailId`).
 */
export async function inviteParticipant(
  em: Sql,
  { platformUrlTemplate, now }: { platformUrlTemplate: string; now: () => Date },
  { platformId, participantId, courseId }: SendInvitationInput,
  opts: { claimForSending?: boolean; newMailId?: string } = {},
): Promise<{ sent: boolean; mailId?: string | null; claimed?: HeldClaim }> {
  const token = randomBytes(24).toString('base64url');
  const invitedAt = now();
  // The usual case (a participant not invited yet) in one statement; otherwise the facts say why not.
  const facts = await markInvitedWithFacts(em, { platformId, participantId, courseId: courseId ?? null, at: invitedAt, loginTokenHash: createHash('sha256').update(token).digest('hex') });
  if (!facts) {
    const found = await lockInvitationFacts(em, platformId, participantId, courseId ?? null);
    if (!found) throw ApplicationFailure.nonRetryable(`participant ${participantId} is not a participant of platform ${platformId}`);
    return { sent: false, mailId: await mailAwaitingDelivery(em, platformId, invitationDedupeKey(participantId)) };
  }
  const queued = await sendMail(em, {
    platformId,
    to: facts.email,
    template: await newParticipantInvitation(em, platformId, courseId ?? null),
    tags: {
      loginLink: `${platformLoginUrl(platformUrlTemplate, facts.subdomain)}?invitation=${token}`,
      participantName: facts.name ?? facts.email,
      participantEmail: facts.email,
      platformTitle: facts.platform_title,
      courseTitle: facts.course_title ?? facts.platform_title,
    },
    dedupeKey: invitationDedupeKey(participantId),
    now: invitedAt,
    id: opts.newMailId,
  }, opts);
  return { sent: true, mailId: queued.mailId, ...(queued.claimed && { claimed: queued.claimed }) };
}

/**
 * A platform template with a fresh login link (`user_reinvitation` unless told), once per `dedupeKey`; the new token
 * replaces the stored hash, so an older link stops working. Runs in the caller's transaction and
 * locks the participant row, so two senders of the same key serialise and only one records it.
 */
export async function mailFreshLoginLink(
  em: EntityManager,
  { platformUrlTemplate, now }: { platformUrlTemplate: string; now: () => Date },
  { platformId, participantId, dedupeKey, template = 'user_reinvitation' }: { platformId: string; participantId: string; dedupeKey: string; template?: LoginLinkTemplate },
): Promise<{ sent: boolean; mailId?: string | null }> {
  const participant = await lockParticipant(em, participantId);
  if (await hasMailUnderKey(em, dedupeKey)) return { sent: false, mailId: await mailAwaitingDelivery(em, platformId, dedupeKey) };
  const platform = await platformOf(em, platformId);
  const token = randomBytes(24).toString('base64url');
  participant.invitedAt ??= now();
  participant.loginTokenHash = createHash('sha256').update(token).digest('hex');
  const queued = await sendMail(em, {
    platformId,
    to: participant.email,
    template: await platformTemplate(em, template),
    tags: {
      loginLink: `${platformLoginUrl(platformUrlTemplate, platform.subdomain)}?invitation=${token}`,
      participantName: participant.name ?? participant.email,
      participantEmail: participant.email,
      platformTitle: platform.title,
      courseTitle: platform.title,
    },
    dedupeKey,
    now: now(),
  });
  return { sent: true, mailId: queued.mailId };
}

/** What a workflow proxies of this file: `activitiesOf<ParticipantActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ParticipantActivities = ReturnType<typeof participantActivities>;
