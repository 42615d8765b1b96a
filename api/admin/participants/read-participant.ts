import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { activeAudiobookAccessOf } from '../../../db/repositories/access/audiobook-access.ts';
import { sectionsWithLessons } from '../../../db/repositories/access/catalogue.ts';
import { enrolmentsOfParticipant } from '../../../db/repositories/access/enrolments.ts';
import { activeOrderFilesOf } from '../../../db/repositories/access/order-files.ts';
import { findParticipantByEmail } from '../../../db/repositories/access/participants.ts';
import { visibleLessonIds, type AccessLevel } from '../../../domain/access/access-level.ts';
import { normalizeEmail } from '../../../domain/shared/email.ts';
import { notFound } from '../../shared/errors.ts';
import type { ParticipantReply } from '../schemas.ts';

/**
 * A participant as the operator sees them (`GET /platforms/:platform_id/participants`): their
 * enrolments with the lessons each lets them see, their audiobooks and the files of their active
 * orders. 404 for an unknown e-mail.
 * The manager is scoped to the platform.
 */
export async function readParticipant(em: EntityManager, email: string): Promise<z.input<typeof ParticipantReply>> {
  const participant = await findParticipantByEmail(em, normalizeEmail(email));
  if (!participant) throw notFound('participant');
  const enrolments = await enrolmentsOfParticipant(em, participant);
  const sections = await sectionsWithLessons(em, enrolments.map((e) => e.course.id));
  const audiobooks = await activeAudiobookAccessOf(em, participant);
  const files = await activeOrderFilesOf(em, participant.platform.id, participant.email);
  return {
    email: participant.email,
    name: participant.name ?? null,
    invited: participant.invitedAt != null,
    courses: enrolments.map((e) => ({
      course_id: e.course.id,
      access_level: e.accessLevel,
      active: e.active,
      viewed_at: e.viewedAt?.toISOString() ?? null,
      visible_lesson_ids: e.active
        ? visibleLessonIds(
            e.accessLevel as AccessLevel,
            sections
              .filter((s) => s.course.id === e.course.id)
              .map((s) => ({ accessLevel: s.accessLevel, lessonIds: s.lessons.getItems().map((l) => l.id) })),
          )
        : [],
    })),
    audiobook_ids: audiobooks.map((a) => a.audiobook.id),
    files,
  };
}
