import type { EntityManager } from '@mikro-orm/postgresql';

/** A participant a timed course mail is owed to, and when its trigger (enrolment or lesson completion) happened. */
export interface CourseMailTrigger {
  participant_id: string;
  triggered_at: Date;
}

/**
 * Active enrolments in the course from `since` on (or, with `lessonId`, their completions of that
 * lesson from `since` on) whose participant has no mail under the template's dedupe key
 * (`course-mail/<template>/<participant>`) yet.
 */
export function courseMailTriggersNotMailed(
  em: EntityManager,
  t: { platformId: string; courseId: string; templateId: string; lessonId: string | null; since: Date },
): Promise<CourseMailTrigger[]> {
  const notMailed = `not exists (select 1 from mail_log m where m.platform_id = e.platform_id and m.dedupe_key = 'course-mail/' || ?::text || '/' || e.participant_id::text)`;
  return t.lessonId
    ? em.execute(
        `select e.participant_id, c.completed_at as triggered_at from enrolments e
           join lesson_completions c on c.participant_id = e.participant_id and c.lesson_id = ?
          where e.platform_id = ? and e.course_id = ? and e.active and c.completed_at >= ? and ${notMailed}`,
        [t.lessonId, t.platformId, t.courseId, t.since, t.templateId],
      )
    : em.execute(
        `select e.participant_id, e.started_at as triggered_at from enrolments e
          where e.platform_id = ? and e.course_id = ? and e.active and e.started_at >= ? and ${notMailed}`,
        [t.platformId, t.courseId, t.since, t.templateId],
      );
}
