import type { EntityManager } from '@mikro-orm/postgresql';
import { Enrolment, Lesson, Participant, type ILesson, type IParticipant } from '../../db/entities/index.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { HttpError, notFound } from '../shared/errors.ts';

/**
 * The participant and lesson a learner-app report names (lesson completion, quiz result): 404 for
 * an unknown participant or lesson, 409 without active access to the lesson's course.
 */
export async function learnerInLesson(em: EntityManager, email: string, lessonId: string): Promise<{ participant: IParticipant; lesson: ILesson; courseId: string }> {
  const participant = await em.findOne(Participant, { email: normalizeEmail(email) });
  if (!participant) throw notFound('participant');
  const lesson = await em.findOne(Lesson, lessonId, { populate: ['section'] });
  if (!lesson) throw notFound('lesson');
  const courseId = lesson.section.getEntity().course.id;
  const enrolment = await em.findOne(Enrolment, { participant, course: courseId, active: true });
  if (!enrolment) throw new HttpError(409, 'the participant has no active access to the course of this lesson');
  return { participant, lesson, courseId };
}
