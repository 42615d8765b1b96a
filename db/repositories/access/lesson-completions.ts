import type { EntityManager } from '@mikro-orm/postgresql';
import { LessonCompletion, type ILessonCompletion } from '../../entities/index.ts';

/**
 * Records that a participant completed a lesson, once per participant and lesson (a repeat keeps
 * the first completion), and returns the stored completion.
 */
export async function recordLessonCompletion(
  em: EntityManager,
  c: { platformId: string; participantId: string; lessonId: string; courseId: string },
): Promise<ILessonCompletion> {
  await em.execute(
    `insert into lesson_completions (id, platform_id, participant_id, lesson_id, course_id, completed_at)
     values (gen_random_uuid(), ?, ?, ?, ?, now())
     on conflict (participant_id, lesson_id) do nothing`,
    [c.platformId, c.participantId, c.lessonId, c.courseId],
  );
  return em.findOneOrFail(LessonCompletion, { participant: c.participantId, lesson: c.lessonId });
}

/** The participant's completion of the lesson, or null when not completed. */
export function findLessonCompletion(em: EntityManager, participantId: string, lessonId: string): Promise<ILessonCompletion | null> {
  return em.findOne(LessonCompletion, { participant: participantId, lesson: lessonId });
}
