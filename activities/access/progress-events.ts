import { courseCompleted, lessonCompleted, quizPassed, type NewDomainEvent, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import { lessonCompletionFacts, lockEnrolmentLevel, quizResultFacts, remainingLessons } from '../../db/repositories/access/progress-events.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { eventRef, recordEventRows, recordEvents } from '../shared/events.ts';

export interface LessonCompletionRef {
  platformId: string;
  courseId: string;
  participantId: string;
  lessonId: string;
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
        const row = await lessonCompletionFacts(tx, { platformId, participantId, courseId, lessonId });
        if (!row) return { events: [] };
        const enrolment = await lockEnrolmentLevel(tx, participantId, courseId);
        const participant = { id: participantId, email: row.email };
        const course = { id: courseId, title: row.course_title };
        const completedAt = new Date(row.completed_at).toISOString();
        const events: NewDomainEvent[] = [lessonCompleted({ participant, course, lesson: { id: lessonId, title: row.lesson_title }, completedAt })];

        const recorded = await recordEvents(tx, platformId, events, `lesson-completion/${row.completion_id}`);
        if (enrolment?.active && (await remainingLessons(tx, participantId, courseId, enrolment.access_level)) === 0) {
          // Keyed by participant and course: recorded once, whichever completion finishes the course.
          const [completion] = await recordEventRows(tx, platformId, [courseCompleted({ participant, course, completedAt })], `course-completion/${participantId}/${courseId}`);
          // Reported by the completion that recorded it (and its retries), not by later ones.
          if (completion && completion.payload.completed_at === completedAt) recorded.push(eventRef(completion));
        }
        return { events: recorded };
      });
    },

    /** `quiz_passed` for a passed result; nothing for a failed one. */
    async recordQuizResultEvents({ platformId, resultId }: { platformId: string; resultId: string }): Promise<{ events: RecordedDomainEvent[] }> {
      return orm.em.fork().transactional(async (tx) => {
        const row = await quizResultFacts(tx, platformId, resultId);
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

/** What a workflow proxies of this file: `activitiesOf<ProgressEventActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ProgressEventActivities = ReturnType<typeof progressEventActivities>;
