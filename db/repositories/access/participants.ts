import type { EntityManager } from '@mikro-orm/postgresql';
import { Participant, type IParticipant } from '../../entities/index.ts';

/** The platform's participant with this (normalized) e-mail, or null; the manager is scoped to the platform. */
export function findParticipantByEmail(em: EntityManager, normalizedEmail: string): Promise<IParticipant | null> {
  return em.findOne(Participant, { email: normalizedEmail });
}
