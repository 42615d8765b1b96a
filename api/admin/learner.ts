import type { EntityManager } from '@mikro-orm/postgresql';
import type { IEnrolment, ILesson, IParticipant } from '../../db/entities/index.ts';
import { findCourse, findLessonWithSection } from '../../db/repositories/access/catalogue.ts';
import { findActiveEnrolment } from '../../db/repositories/access/enrolments.ts';
import { findParticipantByEmail } from '../../db/repositories/access/participants.ts';
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
  const participant = await findParticipantByEmail(em, normalizeEmail(email));
  if (!participant) throw notFound('participant');
  const lesson = await findLessonWithSection(em, lessonId);
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
  const participant = await findParticipantByEmail(em, normalizeEmail(email));
  if (!participant) throw notFound('participant');
  if (!(await findCourse(em, courseId))) throw notFound('course');
  return { participant, enrolment: await activeEnrolment(em, participant, courseId, 'this course') };
}

async function activeEnrolment(em: EntityManager, participant: IParticipant, courseId: string, what: string): Promise<IEnrolment> {
  const enrolment = await findActiveEnrolment(em, participant, courseId);
  if (!enrolment) throw new HttpError(409, `the participant has no active access to ${what}`);
  return enrolment;
}
