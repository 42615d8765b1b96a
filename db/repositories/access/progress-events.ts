import type { EntityManager } from '@mikro-orm/postgresql';

/** What the learner-progress events report, read inside the caller's transaction. */

export interface LessonCompletionFacts {
  completion_id: string;
  completed_at: string | Date;
  email: string;
  course_title: string;
  lesson_title: string;
}

export async function lessonCompletionFacts(tx: EntityManager, c: { platformId: string; participantId: string; courseId: string; lessonId: string }): Promise<LessonCompletionFacts | undefined> {
  const rows: LessonCompletionFacts[] = await tx.execute(
    `select lc.id as completion_id, lc.completed_at, p.email, c.title as course_title, l.title as lesson_title
       from lesson_completions lc
       join participants p on p.id = lc.participant_id
       join courses c on c.id = lc.course_id
       join lessons l on l.id = lc.lesson_id
      where lc.platform_id = ? and lc.participant_id = ? and lc.lesson_id = ? and lc.course_id = ?`,
    [c.platformId, c.participantId, c.lessonId, c.courseId],
  );
  return rows[0];
}

/** The enrolment's level, locked so two last lessons completed at once serialise here. */
export async function lockEnrolmentLevel(tx: EntityManager, participantId: string, courseId: string): Promise<{ access_level: number; active: boolean } | undefined> {
  const rows: { access_level: number; active: boolean }[] = await tx.execute(
    'select access_level, active from enrolments where participant_id = ? and course_id = ? for update',
    [participantId, courseId],
  );
  return rows[0];
}

/** How many lessons the participant's level opens that are not completed yet. */
export async function remainingLessons(tx: EntityManager, participantId: string, courseId: string, accessLevel: number): Promise<number> {
  const [progress] = await tx.execute<{ remaining: string }[]>(
    `select count(*) as remaining from lessons l join sections s on s.id = l.section_id
       left join lesson_completions lc on lc.lesson_id = l.id and lc.participant_id = ?
      where s.course_id = ? and s.access_level <= ? and lc.id is null`,
    [participantId, courseId, accessLevel],
  );
  return Number(progress?.remaining ?? Number.NaN);
}

export interface QuizResultFacts {
  passed: boolean;
  quiz_id: string;
  score: number;
  participant_id: string;
  email: string;
  course_id: string;
  course_title: string;
  lesson_id: string;
  lesson_title: string;
}

export async function quizResultFacts(tx: EntityManager, platformId: string, resultId: string): Promise<QuizResultFacts | undefined> {
  const rows: QuizResultFacts[] = await tx.execute(
    `select q.passed, q.quiz_id, q.score, q.participant_id, p.email, q.course_id, c.title as course_title, q.lesson_id, l.title as lesson_title
       from quiz_results q
       join participants p on p.id = q.participant_id
       join courses c on c.id = q.course_id
       join lessons l on l.id = q.lesson_id
      where q.id = ? and q.platform_id = ?`,
    [resultId, platformId],
  );
  return rows[0];
}
