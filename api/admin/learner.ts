import type { EntityManager } from '@mikro-orm/postgresql';
import { Course, Enrolment, Lesson, Participant, type IEnrolment, type ILesson, type IParticipant } from '../../db/entities/index.ts';
import { canSeeSection, type AccessLevel } from '../../domain/access/access-level.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { HttpError, notFound } from '../shared/errors.ts';

/**
 * The participant and lesson a learner-app report names (lesson completion, quiz result): 404 for
 * an unknown participant or lesson, 409 without active access to the lesson's course, 403 for a
 * lesson in a section above the participant's level (rule 1: the participant cannot see it, so
 * cannot complete or pass it; nothing is recorded and no event or mail follows).
 */
export async function learnerInLesson(em: EntityManager, email: string, lessonId: string): Promise<{ participant: IParticipant; lesson: ILesson; courseId: string; enrolment: IEnrolment }> {
  const participant = await em.findOne(Participant, { email: normalizeEmail(email) });
  if (!participant) throw notFound('participant');
  const lesson = await em.findOne(Lesson, lessonId, { populate: ['section'] });
  if (!lesson) throw notFound('lesson');
  const section = lesson.section.getEntity();
  const courseId = section.course.id;
  const enrolment = await activeEnrolment(em, participant, courseId, 'the course of this lesson');
  if (!canSeeSection(enrolment.accessLevel as AccessLevel, section.accessLevel)) {
    throw new HttpError(403, "the lesson is in a section above the participant's access level");
  }
  return { participant, lesson, courseId, enrolment };
}

/** The participant and course a "viewed" report names: 404 for an unknown one, 409 without active access. */
export async function learnerInCourse(em: EntityManager, email: string, courseId: string): Promise<{ participant: IParticipant; enrolment: IEnrolment }> {
  const participant = await em.findOne(Participant, { email: normalizeEmail(email) });
  if (!participant) throw notFound('participant');
  if (!(await em.findOne(Course, courseId))) throw notFound('course');
  return { participant, enrolment: await activeEnrolment(em, participant, courseId, 'this course') };
}

async function activeEnrolment(em: EntityManager, participant: IParticipant, courseId: string, what: string): Promise<IEnrolment> {
  const enrolment = await em.findOne(Enrolment, { participant, course: courseId, active: true });
  if (!enrolment) throw new HttpError(409, `the participant has no active access to ${what}`);
  return enrolment;
}
