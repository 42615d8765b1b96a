import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { isStaleGrant, isStaleRevoke } from '../../domain/access/access-commands.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import { accessGranted, accessRevoked, type AccessSourceRef, type ParticipantRef, type RecordedDomainEvent } from '../../domain/shared/events.ts';
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
   * from the enrolment): only then do the grant workflows start the course-mail workflow. Implies
   * `outcome: 'applied'`.
   */
  courseMails?: boolean;
}

export interface RevokeCourseAccessInput {
  platformId: string;
  courseId: string;
  email: string;
  seq: number;
}

interface EnrolmentRow {
  id: string;
  access_level: AccessLevel;
  active: boolean;
  granted_seq: string;
  revoked_seq: string;
}

const sourceKeyOf = (source: AccessSourceRef) => (source.kind === 'order' ? `order:${source.order_id}` : 'direct');

/** Makes sure the enrolment row exists (inactive when new), then locks it for this transaction. */
async function lockEnrolment(tx: EntityManager, platformId: string, participantId: string, courseId: string): Promise<EnrolmentRow> {
  await tx.execute(
    `insert into enrolments (id, platform_id, participant_id, course_id, access_level, active, started_at, updated_at, granted_seq, revoked_seq)
     values (gen_random_uuid(), ?, ?, ?, 0, false, now(), now(), 0, 0)
     on conflict (participant_id, course_id) do nothing`,
    [platformId, participantId, courseId],
  );
  const rows: EnrolmentRow[] = await tx.execute(
    'select id, access_level, active, granted_seq, revoked_seq from enrolments where participant_id = ? and course_id = ? for update',
    [participantId, courseId],
  );
  return rows[0]!;
}

const marksOf = (e: EnrolmentRow) => ({ grantedSeq: Number(e.granted_seq), revokedSeq: Number(e.revoked_seq) });

/** The highest level among the enrolment's live sources, or null when none is left. */
async function liveSourceLevel(tx: EntityManager, participantId: string, courseId: string): Promise<AccessLevel | null> {
  const rows: { level: number | null }[] = await tx.execute(
    'select max(access_level) as level from access_sources where participant_id = ? and course_id = ? and revoked_at is null',
    [participantId, courseId],
  );
  return (rows[0]?.level ?? null) as AccessLevel | null;
}

/**
 * Whether the course has active mails the course-mail workflow sends on enrolment: mails timed
 * `send_after` days from it, or its own reinvitation (activities/course-mails.ts).
 */
async function hasEnrolmentMails(tx: EntityManager, courseId: string): Promise<boolean> {
  const rows: unknown[] = await tx.execute(
    `select 1 from course_mail_templates
      where course_id = ? and active
        and ((send_after is not null and send_after_lesson_id is null) or slug = 'course_reinvitation')
      limit 1`,
    [courseId],
  );
  return rows.length > 0;
}

export function courseAccessActivities({ orm }: ActivityDeps) {
  return {
    /**
     * Adds a source to the participant's enrolment and re-derives it: active, at the highest live
     * level (a level only rises; lessons of newly reached sections become visible, progress stays).
     * `access_granted` is recorded when access starts or its level rises.
     */
    async applyCourseGrant({ platformId, participant, courseId, accessLevel, source, seq }: ApplyCourseGrantInput): Promise<AccessChange> {
      return orm.em.fork().transactional(async (tx) => {
        const course: unknown[] = await tx.execute('select 1 from courses where id = ? and platform_id = ?', [courseId, platformId]);
        if (course.length === 0) throw ApplicationFailure.nonRetryable(`course ${courseId} is not a course of this platform`, 'CourseNotFound');
        if (source.kind === 'order') {
          const orders: { status: string }[] = await tx.execute('select status from orders where id = ? and platform_id = ? for share', [source.order_id, platformId]);
          if (orders[0]?.status !== 'registered') return { outcome: 'order_cancelled', accessLevel: null, events: [] };
        }

        const enrolment = await lockEnrolment(tx, platformId, participant.id, courseId);
        if (isStaleGrant(seq, marksOf(enrolment))) {
          return { outcome: 'stale', accessLevel: enrolment.active ? enrolment.access_level : null, events: await recordEvents(tx, platformId, []) };
        }
        await tx.execute(
          `insert into access_sources (id, platform_id, participant_id, course_id, source_key, order_id, access_level, created_at, updated_at)
           values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, now(), now())
           on conflict (participant_id, course_id, source_key) do update
             set access_level = greatest(access_sources.access_level, excluded.access_level), revoked_at = null, updated_at = now()`,
          [platformId, participant.id, courseId, sourceKeyOf(source), source.kind === 'order' ? source.order_id : null, accessLevel],
        );
        const level = (await liveSourceLevel(tx, participant.id, courseId))!;
        await tx.execute(
          // A row a revoke created to remember its order starts when access is first granted.
          `update enrolments set access_level = ?, active = true, granted_seq = greatest(granted_seq, ?),
             started_at = case when granted_seq = 0 then now() else started_at end, updated_at = now() where id = ?`,
          [level, seq, enrolment.id],
        );
        const changed = !enrolment.active || level > enrolment.access_level;
        const events = changed ? [accessGranted({ participant, resource: { type: 'course', id: courseId }, accessLevel: level, source })] : [];
        // Decided from what this operation recorded, so a retry after a lost reply answers the same.
        const recorded = await recordEvents(tx, platformId, events);
        const applied = recorded.length > 0;
        const courseMails = applied && (await hasEnrolmentMails(tx, courseId));
        return { outcome: applied ? 'applied' : 'unchanged', accessLevel: level, events: recorded, courseMails };
      });
    },

    /**
     * `DELETE /api/courses/unsubscribe`: withdraws a level-0 enrolment with all its sources.
     * Level 1 is not revocable through the access interface (rule 6): such a revoke changes nothing.
     */
    async withdrawCourseAccess({ platformId, courseId, email, seq }: RevokeCourseAccessInput): Promise<AccessChange> {
      return orm.em.fork().transactional(async (tx) => {
        const participants: { id: string }[] = await tx.execute('select id from participants where platform_id = ? and email = ?', [platformId, email]);
        const participantId = participants[0]?.id;
        if (!participantId) return { outcome: 'not_enrolled', accessLevel: null, events: [] };

        const enrolment = await lockEnrolment(tx, platformId, participantId, courseId);
        if (isStaleRevoke(seq, marksOf(enrolment))) {
          return { outcome: 'stale', accessLevel: enrolment.active ? enrolment.access_level : null, events: await recordEvents(tx, platformId, []) };
        }
        await tx.execute('update enrolments set revoked_seq = greatest(revoked_seq, ?) where id = ?', [seq, enrolment.id]);
        if (!enrolment.active) return { outcome: 'not_enrolled', accessLevel: null, events: await recordEvents(tx, platformId, []) };
        if (enrolment.access_level >= 1) return { outcome: 'level_1_kept', accessLevel: enrolment.access_level, events: await recordEvents(tx, platformId, []) };

        await tx.execute('update access_sources set revoked_at = now(), updated_at = now() where participant_id = ? and course_id = ? and revoked_at is null', [participantId, courseId]);
        await tx.execute('update enrolments set active = false, updated_at = now() where id = ?', [enrolment.id]);
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
        const orders: unknown[] = await tx.execute('select 1 from orders where id = ? and platform_id = ? for update', [orderId, platformId]);
        if (orders.length === 0) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
        const sources: { participant_id: string; course_id: string; email: string }[] = await tx.execute(
          `update access_sources s set revoked_at = now(), updated_at = now()
             from participants p
            where s.order_id = ? and s.revoked_at is null and p.id = s.participant_id
           returning s.participant_id, s.course_id, p.email`,
          [orderId],
        );
        const events = [];
        for (const { participant_id: participantId, course_id: courseId, email } of sources) {
          const enrolment = await lockEnrolment(tx, platformId, participantId, courseId);
          const remaining = await liveSourceLevel(tx, participantId, courseId);
          if (!enrolment.active || (remaining !== null && remaining >= enrolment.access_level)) continue;
          await tx.execute('update enrolments set active = ?, access_level = ?, updated_at = now() where id = ?', [remaining !== null, remaining ?? enrolment.access_level, enrolment.id]);
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
