import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Participant, type IParticipant } from '../../entities/index.ts';

/** The platform's participant with this (normalized) e-mail, or null; the manager is scoped to the platform. */
export function findParticipantByEmail(em: EntityManager, normalizedEmail: string): Promise<IParticipant | null> {
  return em.findOne(Participant, { email: normalizedEmail });
}

/** The platform's participant; fails when there is none. */
export function participantOf(em: EntityManager, participantId: string): Promise<IParticipant> {
  return em.findOneOrFail(Participant, participantId);
}

/** The participant row locked until the transaction of `tx` ends: senders of one participant's mail take turns. */
export function lockParticipant(tx: EntityManager, participantId: string): Promise<IParticipant> {
  return tx.findOneOrFail(Participant, participantId, { lockMode: LockMode.PESSIMISTIC_WRITE });
}
