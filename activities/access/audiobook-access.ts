import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { ApplicationFailure } from '@temporalio/common';
import { isStaleGrant, isStaleRevoke } from '../../domain/access/access-commands.ts';
import { accessGranted, accessRevoked, type ParticipantRef } from '../../domain/shared/events.ts';
import type { AccessChange } from './course-access.ts';
import {
  activateAudiobookAccess,
  audiobookExists,
  deactivateAudiobookAccess,
  lockAudiobookAccess,
  type AudiobookAccessRow,
} from '../../db/repositories/access/audiobook-access.ts';
import { participantIdByEmail } from '../../db/repositories/access/onboarding.ts';
import { personOfCommand } from './command-person.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { recordEvents } from '../shared/events.ts';

export interface AudiobookGrantInput {
  platformId: string;
  participant: ParticipantRef;
  audiobookId: string;
  seq: number;
}

export interface AudiobookRevokeInput {
  platformId: string;
  audiobookId: string;
  /** Runs started before issue 41 item 3 only: new ones read the command's row (personOfCommand). */
  email?: string;
  seq: number;
}

const marksOf = (row: AudiobookAccessRow) => ({ grantedSeq: Number(row.granted_seq), revokedSeq: Number(row.revoked_seq) });

export function audiobookAccessActivities({ orm }: ActivityDeps) {
  return {
    async withdrawAudiobookAccess(input: AudiobookRevokeInput): Promise<AccessChange> {
      const { platformId, audiobookId, seq } = input;
      return orm.em.fork().transactional(async (tx) => {
        const { email } = await personOfCommand(tx, input);
        const participantId = await participantIdByEmail(tx, platformId, email);
        if (!participantId) return { outcome: 'not_enrolled', accessLevel: null, events: [] };
        const access = await lockAudiobookAccess(tx, platformId, participantId, audiobookId);
        if (isStaleRevoke(seq, marksOf(access))) return { outcome: 'stale', accessLevel: null, events: await recordEvents(tx, platformId, []) };
        await deactivateAudiobookAccess(tx, access.id, seq);
        const events = access.active
          ? [accessRevoked({ participant: { id: participantId, email }, resource: { type: 'audiobook', id: audiobookId }, accessLevel: null, source: { kind: 'direct' } })]
          : [];
        return { outcome: access.active ? 'applied' : 'not_enrolled', accessLevel: null, events: await recordEvents(tx, platformId, events) };
      });
    },
  };
}

/** Gives the participant the audiobook; `access_granted` is recorded, under `operationKey`, when access starts. */
export async function applyAudiobookGrantIn(tx: Sql, { platformId, participant, audiobookId, seq }: AudiobookGrantInput, operationKey?: string): Promise<AccessChange> {
  if (!(await audiobookExists(tx, platformId, audiobookId))) throw ApplicationFailure.nonRetryable(`audiobook ${audiobookId} is not an audiobook of this platform`, 'AudiobookNotFound');
  const access = await lockAudiobookAccess(tx, platformId, participant.id, audiobookId);
  if (isStaleGrant(seq, marksOf(access))) return { outcome: 'stale', accessLevel: null, events: await recordEvents(tx, platformId, [], operationKey) };
  await activateAudiobookAccess(tx, access.id, seq);
  const events = access.active ? [] : [accessGranted({ participant, resource: { type: 'audiobook', id: audiobookId }, accessLevel: null, source: { kind: 'direct' } })];
  return { outcome: access.active ? 'unchanged' : 'applied', accessLevel: null, events: await recordEvents(tx, platformId, events, operationKey) };
}

/** What a workflow proxies of this file: `activitiesOf<AudiobookAccessActivities>(profile)` (workflows/shared/activities-of.ts). */
export type AudiobookAccessActivities = ReturnType<typeof audiobookAccessActivities>;
