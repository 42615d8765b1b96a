import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { ApplicationFailure } from '@temporalio/common';
import { isStaleGrant, isStaleRevoke } from '../../domain/access/access-commands.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import { accessGranted, accessRevoked, type AccessSourceRef, type ParticipantRef, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import {
  activateAtLiveLevel,
  endEnrolment,
  liveSourceLevel,
  lockEnrolment,
  lockEnrolmentForGrant,
  markEnrolmentRevoke,
  revokeOrderSources,
  setEnrolmentAccess,
  upsertAccessSource,
  type EnrolmentRow,
} from '../../db/repositories/access/course-access.ts';
import { lockOrder, orderStatusForShare } from '../../db/repositories/access/order-fulfilment.ts';
import { participantIdByEmail } from '../../db/repositories/access/onboarding.ts';
import { personOfCommand } from './command-person.ts';
import { invitationAnswer } from '../../db/repositories/access/participant-activity.ts';
import { owesReinvitation } from '../../domain/access/reinvitation.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { recordEvents } from '../shared/events.ts';

export interface ApplyCourseGrantInput {
  platformId: string;
  participant: ParticipantRef;
  courseId: string;
  accessLevel: AccessLevel;
  source: AccessSourceRef;
  /** Order of the command among grants and revokes (domain/access-commands.ts). */
  seq: number;
}

export type AccessChangeOutcome = 'applied' | 'unchanged' | 'stale' | 'order_cancelled' | 'not_enrolled' | 'level_1_kept';

export interface AccessChange {
  outcome: AccessChangeOutcome;
  accessLevel: AccessLevel | null;
  events: RecordedDomainEvent[];
  /**
   * An applied course grant whose course has enrolment mails (its own invitations or mails timed
   * from the enrolment), or whose participant is owed a reinvitation (domain/access/reinvitation.ts):
   * only then do the grant workflows start the course-mail workflow. Implies
   * `outcome: 'applied'`.
   */
  courseMails?: boolean;
}

export interface RevokeCourseAccessInput {
  platformId: string;
  courseId: string;
  /** Runs started before issue 41 item 3 only: new ones read the command's row (personOfCommand). */
  email?: string;
  seq: number;
}

const sourceKeyOf = (source: AccessSourceRef) => (source.kind === 'order' ? `order:${source.order_id}` : 'direct');

const marksOf = (e: EnrolmentRow) => ({ grantedSeq: Number(e.granted_seq), revokedSeq: Number(e.revoked_seq) });

export function courseAccessActivities({ orm }: ActivityDeps) {
  return {
    /**
     * `DELETE /api/courses/unsubscribe`: withdraws a level-0 enrolment with all its sources.
     * Level 1 is not revocable through the access interface (rule 6): such a revoke changes nothing.
     */
    async withdrawCourseAccess(input: RevokeCourseAccessInput): Promise<AccessChange> {
      const { platformId, courseId, seq } = input;
      return orm.em.fork().transactional(async (tx) => {
        const { email } = await personOfCommand(tx, input);
        const participantId = await participantIdByEmail(tx, platformId, email);
        if (!participantId) return { outcome: 'not_enrolled', accessLevel: null, events: [] };

        const enrolment = await lockEnrolment(tx, platformId, participantId, courseId);
        if (isStaleRevoke(seq, marksOf(enrolment))) {
          return { outcome: 'stale', accessLevel: enrolment.active ? enrolment.access_level : null, events: await recordEvents(tx, platformId, []) };
        }
        await markEnrolmentRevoke(tx, enrolment.id, seq);
        if (!enrolment.active) return { outcome: 'not_enrolled', accessLevel: null, events: await recordEvents(tx, platformId, []) };
        if (enrolment.access_level >= 1) return { outcome: 'level_1_kept', accessLevel: enrolment.access_level, events: await recordEvents(tx, platformId, []) };

        await endEnrolment(tx, { id: enrolment.id, participantId, courseId });
        const revoked = accessRevoked({ participant: { id: participantId, email }, resource: { type: 'course', id: courseId }, accessLevel: null, source: { kind: 'direct' } });
        return { outcome: 'applied', accessLevel: null, events: await recordEvents(tx, platformId, [revoked]) };
      });
    },

    /**
     * Order cancellation: revokes the order's own sources. A course that another source still
     * grants stays, at the highest level left; otherwise the enrolment ends.
     */
    async withdrawOrderAccess({ platformId, orderId }: { platformId: string; orderId: string }): Promise<{ events: RecordedDomainEvent[] }> {
      return orm.em.fork().transactional(async (tx) => {
        if (!(await lockOrder(tx, platformId, orderId))) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
        const sources = await revokeOrderSources(tx, orderId);
        const events = [];
        // Enrolments are locked in course id order, as an order's fulfilment locks them: no deadlock.
        const byCourse = [...sources].sort((a, b) => a.course_id.localeCompare(b.course_id));
        for (const { participant_id: participantId, course_id: courseId, email } of byCourse) {
          const enrolment = await lockEnrolment(tx, platformId, participantId, courseId);
          const remaining = await liveSourceLevel(tx, participantId, courseId);
          if (!enrolment.active || (remaining !== null && remaining >= enrolment.access_level)) continue;
          await setEnrolmentAccess(tx, enrolment.id, { active: remaining !== null, level: remaining ?? enrolment.access_level });
          events.push(
            accessRevoked({
              participant: { id: participantId, email },
              resource: { type: 'course', id: courseId },
              accessLevel: remaining,
              source: { kind: 'order', order_id: orderId },
            }),
          );
        }
        return { events: await recordEvents(tx, platformId, events) };
      });
    },
  };
}

/**
 * Adds a source to the participant's enrolment and re-derives it: active, at the highest live
 * level (a level only rises; lessons of newly reached sections become visible, progress stays).
 * `access_granted` is recorded, under `operationKey`, when access starts or its level rises.
 */
export async function applyCourseGrantIn(
  tx: Sql,
  { platformId, participant, courseId, accessLevel, source, seq }: ApplyCourseGrantInput,
  { now, operationKey, invitedNow = false }: { now: Date; operationKey?: string; /** The caller invited the participant in this transaction: no reinvitation is owed. */ invitedNow?: boolean },
): Promise<AccessChange> {
  if (source.kind === 'order') {
    if ((await orderStatusForShare(tx, platformId, source.order_id)) !== 'registered') return { outcome: 'order_cancelled', accessLevel: null, events: [] };
  }

  const enrolment = await lockEnrolmentForGrant(tx, platformId, participant.id, courseId);
  if (!enrolment) throw ApplicationFailure.nonRetryable(`course ${courseId} is not a course of this platform`, 'CourseNotFound');
  if (isStaleGrant(seq, marksOf(enrolment))) {
    return { outcome: 'stale', accessLevel: enrolment.active ? enrolment.access_level : null, events: await recordEvents(tx, platformId, [], operationKey) };
  }
  await upsertAccessSource(tx, {
    platformId,
    participantId: participant.id,
    courseId,
    sourceKey: sourceKeyOf(source),
    orderId: source.kind === 'order' ? source.order_id : null,
    accessLevel,
  });
  const level = await activateAtLiveLevel(tx, { id: enrolment.id, participantId: participant.id, courseId }, seq);
  const changed = !enrolment.active || level > enrolment.access_level;
  const events = changed ? [accessGranted({ participant, resource: { type: 'course', id: courseId }, accessLevel: level, source })] : [];
  // Decided from what this operation recorded, so a retry after a lost reply answers the same.
  const recorded = await recordEvents(tx, platformId, events, operationKey);
  const applied = recorded.length > 0;
  const courseMails =
    applied && (enrolment.course_mails || (!invitedNow && owesReinvitation({ ...(await invitationAnswer(tx, participant.id)), now })));
  return { outcome: applied ? 'applied' : 'unchanged', accessLevel: level, events: recorded, courseMails };
}

/** What a workflow proxies of this file: `activitiesOf<CourseAccessActivities>(profile)` (workflows/shared/activities-of.ts). */
export type CourseAccessActivities = ReturnType<typeof courseAccessActivities>;
