import { courseCompleted, lessonCompleted, quizPassed, type NewDomainEvent, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { recordEvents } from '../shared/events.ts';

export interface LessonCompletionRef {
  platformId: string;
  courseId: string;
  participantId: string;
  lessonId: string;
}

interface CompletionRow {
  completion_id: string;
  completed_at: string | Date;
  email: string;
  course_title: string;
  lesson_title: string;
}

/**
 * Learner progress as domain events (outbox). Each occurrence is keyed by its business record
 * (the completion, the quiz result), so a retried activity or a repeated workflow run returns the
 * events already recorded instead of writing new ones.
 */
export function progressEventActivities({ orm }: ActivityDeps) {
  return {
    /**
     * `lesson_completed`, and `course_completed` when this completion finishes every lesson the
     * participant's access level opens. The enrolment row is locked, so two last lessons completed
     * at once give one `course_completed`; a course completed before is not completed again.
     */
    async recordLessonCompletionEvents({ platformId, courseId, participantId, lessonId }: LessonCompletionRef): Promise<{ events: RecordedDomainEvent[] }> {
      return orm.em.fork().transactional(async (tx) => {
        const rows: CompletionRow[] = await tx.execute(
          `select lc.id as completion_id, lc.completed_at, p.email, c.title as course_title, l.title as lesson_title
             from lesson_completions lc
             join participants p on p.id = lc.participant_id
             join courses c on c.id = lc.course_id
             join lessons l on l.id = lc.lesson_id
            where lc.platform_id = ? and lc.participant_id = ? and lc.lesson_id = ? and lc.course_id = ?`,
          [platformId, participantId, lessonId, courseId],
        );
        const row = rows[0];
        if (!row) return { events: [] };
        const enrolments: { access_level: number; active: boolean }[] = await tx.execute(
          'select access_level, active from enrolments where participant_id = ? and course_id = ? for update',
          [participantId, courseId],
        );
        const participant = { id: participantId, email: row.email };
        const course = { id: courseId, title: row.course_title };
        const completedAt = new Date(row.completed_at).toISOString();
        const events: NewDomainEvent[] = [lessonCompleted({ participant, course, lesson: { id: lessonId, title: row.lesson_title }, completedAt })];

        const recorded = await recordEvents(tx, platformId, events, `lesson-completion/${row.completion_id}`);
        const enrolment = enrolments[0];
        if (enrolment?.active) {
          const [progress] = await tx.execute<{ remaining: string }[]>(
            `select count(*) as remaining from lessons l join sections s on s.id = l.section_id
               left join lesson_completions lc on lc.lesson_id = l.id and lc.participant_id = ?
              where s.course_id = ? and s.access_level <= ? and lc.id is null`,
            [participantId, courseId, enrolment.access_level],
          );
          if (progress && Number(progress.remaining) === 0) {
            // Keyed by participant and course: recorded once, whichever completion finishes the course.
            const [completion] = await recordEvents(tx, platformId, [courseCompleted({ participant, course, completedAt })], `course-completion/${participantId}/${courseId}`);
            // Reported by the completion that recorded it (and its retries), not by later ones.
            if (completion && completion.payload.completed_at === completedAt) recorded.push(completion);
          }
        }
        return { events: recorded };
      });
    },

    /** `quiz_passed` for a passed result; nothing for a failed one. */
    async recordQuizResultEvents({ platformId, resultId }: { platformId: string; resultId: string }): Promise<{ events: RecordedDomainEvent[] }> {
      return orm.em.fork().transactional(async (tx) => {
        const rows: { passed: boolean; quiz_id: string; score: number; participant_id: string; email: string; course_id: string; course_title: string; lesson_id: string; lesson_title: string }[] =
          await tx.execute(
            `select q.passed, q.quiz_id, q.score, q.participant_id, p.email, q.course_id, c.title as course_title, q.lesson_id, l.title as lesson_title
               from quiz_results q
               join participants p on p.id = q.participant_id
               join courses c on c.id = q.course_id
               join lessons l on l.id = q.lesson_id
              where q.id = ? and q.platform_id = ?`,
            [resultId, platformId],
          );
        const row = rows[0];
        if (!row?.passed) return { events: [] };
        const event = quizPassed({
          participant: { id: row.participant_id, email: row.email },
          course: { id: row.course_id, title: row.course_title },
          lesson: { id: row.lesson_id, title: row.lesson_title },
          quizId: row.quiz_id,
          score: Number(row.score),
          resultId,
        });
        return { events: await recordEvents(tx, platformId, [event], `quiz-result/${resultId}`) };
      });
    },
  };
}
