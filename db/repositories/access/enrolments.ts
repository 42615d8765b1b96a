import type { EntityManager } from '@mikro-orm/postgresql';
import { Enrolment, type IEnrolment, type IParticipant } from '../../entities/index.ts';

export interface ActiveEnrolment {
  id: string;
  title: string;
  started_at: Date;
  viewed_at: Date | null;
}

/** A participant's active enrolments in active courses, by normalized e-mail, in one statement. */
export function activeEnrolmentsByEmail(em: EntityManager, platformId: string, normalizedEmail: string): Promise<ActiveEnrolment[]> {
  return em.getConnection().execute(
    `select c.id, c.title, e.started_at, e.viewed_at
       from enrolments e
       join participants p on p.id = e.participant_id
       join courses c on c.id = e.course_id
      where e.platform_id = ? and p.platform_id = ? and c.platform_id = ?
        and p.email = ? and e.active and c.active
      order by e.started_at, c.title`,
    [platformId, platformId, platformId, normalizedEmail],
  );
}

/**
 * Records that a participant viewed a course: `viewed_at` is the first view and is never moved
 * (a repeat keeps it). Returns the stored time, or null when the enrolment row is gone.
 */
export async function markCourseViewed(em: EntityManager, enrolmentId: string): Promise<{ viewedAt: Date; first: boolean } | null> {
  const set: { viewed_at: Date }[] = await em.execute('update enrolments set viewed_at = now() where id = ? and viewed_at is null returning viewed_at', [enrolmentId]);
  if (set[0]) return { viewedAt: new Date(set[0].viewed_at), first: true };
  const kept: { viewed_at: Date | null }[] = await em.execute('select viewed_at from enrolments where id = ?', [enrolmentId]);
  return kept[0]?.viewed_at ? { viewedAt: new Date(kept[0].viewed_at), first: false } : null;
}

/** The participant's active enrolment in the course, or null. */
export function findActiveEnrolment(em: EntityManager, participant: IParticipant | string, courseId: string): Promise<IEnrolment | null> {
  return em.findOne(Enrolment, { participant, course: courseId, active: true });
}

/**
 * The participant's enrolments as the operator sees them, oldest first: active ones and ended
 * ones that were granted (rows a revoke created only to remember its order are not enrolments).
 */
export function enrolmentsOfParticipant(em: EntityManager, participant: IParticipant): Promise<IEnrolment[]> {
  return em.find(Enrolment, { participant, $or: [{ active: true }, { grantedSeq: { $gt: 0 } }] }, { orderBy: { startedAt: 'asc' } });
}
