import type { EntityManager } from '@mikro-orm/postgresql';

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
