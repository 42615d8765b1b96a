import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../shared/pooled-transaction.ts';
import type { AccessLevel } from '../../../domain/access/access-level.ts';

/**
 * Course access as the grant and revoke activities change it: the enrolment (one per participant
 * and course) and its sources (direct, or one per order). Every function runs inside the caller's
 * transaction; the statements that decide under concurrency (the upserts, the row lock) are single
 * statements as before.
 */

export interface EnrolmentRow {
  id: string;
  access_level: AccessLevel;
  active: boolean;
  granted_seq: string;
  revoked_seq: string;
}

/**
 * Whether the course has active mails the course-mail workflow sends on enrolment: mails timed
 * `send_after` days from it, or its own reinvitation (activities/access/course-mails.ts).
 */
const COURSE_HAS_ENROLMENT_MAILS = `exists (
  select 1 from course_mail_templates t
   where t.course_id = enrolments.course_id and t.active
     and ((t.send_after is not null and t.send_after_lesson_id is null) or t.slug = 'course_reinvitation'))`;

/**
 * A grant's enrolment row, in one statement: made (inactive) when absent, and locked for this
 * transaction, with whether its course has enrolment mails; undefined when the course is not one
 * of the platform's.
 */
export async function lockEnrolmentForGrant(tx: Sql, platformId: string, participantId: string, courseId: string): Promise<(EnrolmentRow & { course_mails: boolean }) | undefined> {
  const rows: (EnrolmentRow & { course_mails: boolean })[] = await tx.execute(
    `insert into enrolments (id, platform_id, participant_id, course_id, access_level, active, started_at, updated_at, granted_seq, revoked_seq)
     select gen_random_uuid(), c.platform_id, ?, c.id, 0, false, now(), now(), 0, 0 from courses c where c.id = ? and c.platform_id = ?
     on conflict (participant_id, course_id) do update set participant_id = excluded.participant_id
     returning id, access_level, active, granted_seq, revoked_seq, ${COURSE_HAS_ENROLMENT_MAILS} as course_mails`,
    [participantId, courseId, platformId],
  );
  return rows[0];
}

/** Makes sure the enrolment row exists (inactive when new), then locks it for this transaction. */
export async function lockEnrolment(tx: EntityManager, platformId: string, participantId: string, courseId: string): Promise<EnrolmentRow> {
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

/** The highest level among the enrolment's live sources, or null when none is left. */
export async function liveSourceLevel(tx: EntityManager, participantId: string, courseId: string): Promise<AccessLevel | null> {
  const rows: { level: number | null }[] = await tx.execute(
    'select max(access_level) as level from access_sources where participant_id = ? and course_id = ? and revoked_at is null',
    [participantId, courseId],
  );
  return (rows[0]?.level ?? null) as AccessLevel | null;
}

export interface AccessSourceGrant {
  platformId: string;
  participantId: string;
  courseId: string;
  /** `direct` or `order:<id>`: one source per key. */
  sourceKey: string;
  orderId: string | null;
  accessLevel: AccessLevel;
}

/** Adds the source, or raises and revives it (a source's level only rises). */
export async function upsertAccessSource(tx: Sql, s: AccessSourceGrant): Promise<void> {
  await tx.execute(
    `insert into access_sources (id, platform_id, participant_id, course_id, source_key, order_id, access_level, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, now(), now())
     on conflict (participant_id, course_id, source_key) do update
       set access_level = greatest(access_sources.access_level, excluded.access_level), revoked_at = null, updated_at = now()`,
    [s.platformId, s.participantId, s.courseId, s.sourceKey, s.orderId, s.accessLevel],
  );
}

/**
 * Active at the highest level among the enrolment's live sources, remembering the grant's
 * sequence number, in one statement; the level it now has.
 */
export async function activateAtLiveLevel(tx: Sql, enrolment: { id: string; participantId: string; courseId: string }, seq: number): Promise<AccessLevel> {
  const rows: { access_level: number }[] = await tx.execute(
    // A row a revoke created to remember its order starts when access is first granted.
    `update enrolments e set access_level = live.level, active = true, granted_seq = greatest(e.granted_seq, ?),
       started_at = case when e.granted_seq = 0 then now() else e.started_at end, updated_at = now()
       from (select max(access_level) as level from access_sources where participant_id = ? and course_id = ? and revoked_at is null) live
      where e.id = ?
      returning e.access_level`,
    [seq, enrolment.participantId, enrolment.courseId, enrolment.id],
  );
  return rows[0]!.access_level as AccessLevel;
}

/** Remembers a revoke's sequence number, so an older grant arriving later is stale. */
export async function markEnrolmentRevoke(tx: EntityManager, enrolmentId: string, seq: number): Promise<void> {
  await tx.execute('update enrolments set revoked_seq = greatest(revoked_seq, ?) where id = ?', [seq, enrolmentId]);
}

/** Withdraws the enrolment with all its live sources. */
export async function endEnrolment(tx: EntityManager, enrolment: { id: string; participantId: string; courseId: string }): Promise<void> {
  await tx.execute('update access_sources set revoked_at = now(), updated_at = now() where participant_id = ? and course_id = ? and revoked_at is null', [
    enrolment.participantId,
    enrolment.courseId,
  ]);
  await tx.execute('update enrolments set active = false, updated_at = now() where id = ?', [enrolment.id]);
}

/** Revokes the order's live sources; the (participant, course) pairs they opened, with the e-mail. */
export async function revokeOrderSources(tx: EntityManager, orderId: string): Promise<{ participant_id: string; course_id: string; email: string }[]> {
  return tx.execute(
    `update access_sources s set revoked_at = now(), updated_at = now()
       from participants p
      where s.order_id = ? and s.revoked_at is null and p.id = s.participant_id
     returning s.participant_id, s.course_id, p.email`,
    [orderId],
  );
}

export async function setEnrolmentAccess(tx: EntityManager, enrolmentId: string, access: { active: boolean; level: AccessLevel }): Promise<void> {
  await tx.execute('update enrolments set active = ?, access_level = ?, updated_at = now() where id = ?', [access.active, access.level, enrolmentId]);
}
