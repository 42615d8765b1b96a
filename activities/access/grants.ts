import type { AccessLevel } from '../../domain/access/access-level.ts';
import type { OrderedCourse } from '../../domain/access/order-contents.ts';
import type { ParticipantRef, RecordedDomainEvent } from '../../domain/shared/events.ts';
import { webhookDeliveriesFor, type WebhookDeliveryStart } from '../../domain/shared/webhooks.ts';
import { invitationDedupeKey } from '../../db/repositories/access/onboarding.ts';
import { mailAwaitingDelivery } from '../../db/repositories/shared/mail-log.ts';
import { operationMailId, type HeldClaim } from '../mail/render.ts';
import { subscribedWebhooks } from '../../db/repositories/shared/webhook-deliveries.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { currentOperationKey } from '../shared/events.ts';
import { pooledTransaction, type Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { mailDelivery, type MailAttemptOutcome } from '../mail/delivery.ts';
import { applyAudiobookGrantIn } from './audiobook-access.ts';
import { applyCourseGrantIn, type AccessChange } from './course-access.ts';
import { completeOrderFulfilmentIn } from './orders.ts';
import { ApplicationFailure } from '@temporalio/common';
import { personOfCommand, type LegacyPerson } from './command-person.ts';
import { orderEmail } from '../../db/repositories/access/order-fulfilment.ts';
import { ensureParticipantIn, inviteParticipant, type EnsuredParticipant } from './participants.ts';

export interface CourseGrantInput extends LegacyPerson {
  platformId: string;
  courseId: string;
  accessLevel: AccessLevel;
  seq: number;
}

export interface AudiobookGrantInput extends LegacyPerson {
  platformId: string;
  audiobookId: string;
  seq: number;
}

export interface OrderFulfilmentInput {
  platformId: string;
  orderId: string;
  /** Runs started before issue 41 item 3 only: new ones read the order's address. */
  email?: string;
  courses: OrderedCourse[];
  seq: number;
}

/** What every grant step did besides its access change, and what its workflow hands on. */
export interface Onboarding {
  participantId: string;
  /** This step created the participant (read from the `user_registered` it recorded, so a retry answers the same). */
  created: boolean;
  invitationSent: boolean;
  /** This step's invitation while it awaits delivery (also when a retry of the step finds it undelivered), else null. */
  invitationMailId: string | null;
  /**
   * The step's one attempt at that invitation, made after its transaction committed (null: none
   * was due); the workflow starts the delivery workflow only for `retry`. A result recorded before
   * the step made the attempt lacks the field, and its workflow makes the attempt itself.
   */
  invitationDelivery: MailAttemptOutcome | null;
  /** Every event of the step, `user_registered` first. */
  events: RecordedDomainEvent[];
  /** One per (event of this step, active webhook subscribed to its type). */
  webhookDeliveries: WebhookDeliveryStart[];
}

export type GrantStep = Omit<AccessChange, 'events'> & Onboarding;

/** An order's courses, in the order's order, each with the enrolment's own course-mail decision. */
export interface OrderFulfilmentStep extends Onboarding {
  courses: { courseId: string; courseMails: boolean }[];
  fulfilled: boolean;
}

/** A grant step's platform and first course; `person` reads whom it grants to inside its transaction. */
interface GrantStepInput {
  platformId: string;
  courseId: string | null;
  person: (tx: Sql) => Promise<{ email: string; name?: string | null }>;
}

async function orderEmailOf(tx: Sql, platformId: string, orderId: string): Promise<string> {
  const email = await orderEmail(tx, platformId, orderId);
  if (email === undefined) throw ApplicationFailure.nonRetryable(`order ${orderId} is not an order of this platform`, 'OrderNotFound');
  return email;
}

/**
 * The undelivered invitation of an invited participant that this operation recorded (a retry after
 * a commit whose reply was lost hands it on again), else null: an invitation of another operation
 * is not this grant's to send (nor an old, failed or superseded one to send again). It is this
 * operation's when it bears the id the operation names it by, or when the operation created the
 * participant (which also finds one recorded before invitations were named, with a random id).
 * The upsert's snapshot tells whether it awaits delivery, unless it shows none: then the invitation
 * may have been committed by the transaction whose lock the upsert waited for (an overlapping
 * attempt of this very step), or the participant was invited another way (an operator's login
 * link); it is read again, after the lock.
 */
async function ownUndeliveredInvitation(tx: Sql, platformId: string, ensured: EnsuredParticipant, created: boolean, operationKey: string): Promise<string | null> {
  const dedupeKey = invitationDedupeKey(ensured.participantId);
  const seen = ensured.invitation;
  const awaiting = seen ? (seen.awaiting ? seen.id : null) : await mailAwaitingDelivery(tx, platformId, dedupeKey);
  return awaiting !== null && (created || awaiting === operationMailId(operationKey, dedupeKey)) ? awaiting : null;
}

/**
 * A whole grant as one step in one transaction (issue 17): the participant created when absent
 * and invited once, the access applied, the events recorded and the webhooks subscribed to them
 * looked up. Each part records its events under its own key of this operation, so a retry after a
 * commit whose reply was lost answers the same as the first run. The participant row is locked
 * first (by the upsert) in every grant, so concurrent grants of one e-mail serialise there and
 * never deadlock on their enrolments.
 */
export function grantActivities(deps: ActivityDeps) {
  const { orm, platformUrlTemplate, now = () => new Date() } = deps;
  const { attemptMailOnce, attemptClaimedOnce } = mailDelivery(deps);

  /**
   * The grant's transaction, then one attempt at its invitation (issue 26: no second local
   * activity and its marker for the mail that almost always goes out at the first try). A new
   * invitation is recorded already claimed for that attempt; one a retry of the step finds
   * undelivered is claimed as any other.
   */
  async function grantStep<T extends { events: RecordedDomainEvent[] }>(
    input: GrantStepInput,
    apply: (tx: Sql, participant: ParticipantRef, step: { operationKey: string; invitedNow: boolean }) => Promise<T>,
  ): Promise<Omit<T, 'events'> & Onboarding> {
    const { step, claimedInvitation } = await grantTransaction(input, apply);
    const invitationDelivery = claimedInvitation
      ? await attemptClaimedOnce(input.platformId, claimedInvitation)
      : step.invitationMailId
        ? await attemptMailOnce(input.platformId, step.invitationMailId)
        : null;
    return { ...step, invitationDelivery };
  }

  function grantTransaction<T extends { events: RecordedDomainEvent[] }>(
    input: GrantStepInput,
    apply: (tx: Sql, participant: ParticipantRef, step: { operationKey: string; invitedNow: boolean }) => Promise<T>,
  ): Promise<{ step: Omit<T, 'events'> & Omit<Onboarding, 'invitationDelivery'>; claimedInvitation: HeldClaim | undefined }> {
    const { platformId } = input;
    const operationKey = currentOperationKey();
    return pooledTransaction(orm.em, async (tx) => {
      const { email, name } = await input.person(tx);
      const ensured = await ensureParticipantIn(tx, { platformId, email, name }, `${operationKey}/participant`);
      const participantId = ensured.participantId;
      const created = ensured.events.some((e) => e.type === 'user_registered');
      const invitation = !ensured.invited
        ? await inviteParticipant(tx, { platformUrlTemplate, now }, { platformId, participantId, courseId: input.courseId }, {
            claimForSending: true,
            newMailId: operationMailId(operationKey, invitationDedupeKey(participantId)),
          })
        : { sent: false, mailId: await ownUndeliveredInvitation(tx, platformId, ensured, created, operationKey) };
      const change = await apply(tx, { id: participantId, email }, { operationKey: `${operationKey}/access`, invitedNow: invitation.sent });
      const events = [...ensured.events, ...change.events];
      const types = [...new Set(events.map((e) => e.type))];
      const webhooks = types.length === 0 ? [] : await subscribedWebhooks(tx, platformId, types);
      const step = {
        ...change,
        events,
        participantId,
        created,
        invitationSent: invitation.sent,
        invitationMailId: invitation.mailId ?? null,
        webhookDeliveries: webhookDeliveriesFor(events, webhooks.map((w) => ({ webhookId: w.id, events: w.events }))),
      };
      return { step, claimedInvitation: 'claimed' in invitation ? invitation.claimed : undefined };
    });
  }

  return {
    /** `POST /api/courses/subscribe`, one course entry: participant, invitation, enrolment (spec: grant rules). */
    grantCourse(input: CourseGrantInput): Promise<GrantStep> {
      const { platformId, courseId, accessLevel, seq } = input;
      return grantStep({ platformId, courseId, person: (tx) => personOfCommand(tx, input) }, (tx, participant, step) =>
        applyCourseGrantIn(tx, { platformId, participant, courseId, accessLevel, source: { kind: 'direct' }, seq }, { now: now(), ...step }),
      );
    },

    /** `POST /api/audiobooks/subscribe`, one entry: participant, invitation, access. */
    grantAudiobook(input: AudiobookGrantInput): Promise<GrantStep> {
      const { platformId, audiobookId, seq } = input;
      return grantStep({ platformId, courseId: null, person: (tx) => personOfCommand(tx, input) }, (tx, participant, step) => applyAudiobookGrantIn(tx, { platformId, participant, audiobookId, seq }, step.operationKey));
    },

    /**
     * `POST /api/orders`: every course granted with the order as its source (a cancellation
     * withdraws exactly this), then the order marked fulfilled with `order_fulfilled`. A
     * cancellation that landed first makes the grants no-ops and records no `order_fulfilled`.
     */
    fulfilOrderAccess({ platformId, orderId, email, courses, seq }: OrderFulfilmentInput): Promise<OrderFulfilmentStep> {
      return grantStep({ platformId, courseId: courses[0]?.courseId ?? null, person: async (tx) => ({ email: email ?? (await orderEmailOf(tx, platformId, orderId)) }) }, async (tx, participant, { operationKey: key, invitedNow }) => {
        // Enrolments are locked in course id order, as a cancellation locks them: no deadlock.
        const changes = new Map<string, AccessChange>();
        for (const { courseId, accessLevel } of [...courses].sort((a, b) => a.courseId.localeCompare(b.courseId))) {
          const source = { kind: 'order' as const, order_id: orderId };
          changes.set(courseId, await applyCourseGrantIn(tx, { platformId, participant, courseId, accessLevel, source, seq }, { now: now(), operationKey: `${key}/${courseId}`, invitedNow }));
        }
        const completed = await completeOrderFulfilmentIn(tx, { platformId, orderId, participant, courses }, `${key}/fulfilled`);
        const inOrder = courses.map(({ courseId }) => ({ courseId, change: changes.get(courseId)! }));
        return {
          courses: inOrder.map(({ courseId, change }) => ({ courseId, courseMails: change.courseMails === true })),
          fulfilled: completed.fulfilled,
          events: [...inOrder.flatMap(({ change }) => change.events), ...completed.events],
        };
      });
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<GrantActivities>(profile)` (workflows/shared/activities-of.ts). */
export type GrantActivities = ReturnType<typeof grantActivities>;
