import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { isStaleGrant, isStaleRevoke } from '../../domain/access/access-commands.ts';
import { accessGranted, accessRevoked, type ParticipantRef } from '../../domain/shared/events.ts';
import type { AccessChange } from './course-access.ts';
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
  email: string;
  seq: number;
}

interface AccessRow {
  id: string;
  active: boolean;
  granted_seq: string;
  revoked_seq: string;
}

const marksOf = (row: AccessRow) => ({ grantedSeq: Number(row.granted_seq), revokedSeq: Number(row.revoked_seq) });

/** The access row (inactive when new), locked for the transaction. */
async function lockAccess(tx: EntityManager, platformId: string, participantId: string, audiobookId: string): Promise<AccessRow> {
  await tx.execute(
    `insert into audiobook_accesses (id, platform_id, participant_id, audiobook_id, active, granted_at, granted_seq, revoked_seq, updated_at)
     values (gen_random_uuid(), ?, ?, ?, false, now(), 0, 0, now())
     on conflict (participant_id, audiobook_id) do nothing`,
    [platformId, participantId, audiobookId],
  );
  const rows: AccessRow[] = await tx.execute(
    'select id, active, granted_seq, revoked_seq from audiobook_accesses where participant_id = ? and audiobook_id = ? for update',
    [participantId, audiobookId],
  );
  return rows[0]!;
}

export function audiobookAccessActivities({ orm }: ActivityDeps) {
  return {
    async applyAudiobookGrant({ platformId, participant, audiobookId, seq }: AudiobookGrantInput): Promise<AccessChange> {
      return orm.em.fork().transactional(async (tx) => {
        const found: unknown[] = await tx.execute('select 1 from audiobooks where id = ? and platform_id = ?', [audiobookId, platformId]);
        if (found.length === 0) throw ApplicationFailure.nonRetryable(`audiobook ${audiobookId} is not an audiobook of this platform`, 'AudiobookNotFound');
        const access = await lockAccess(tx, platformId, participant.id, audiobookId);
        if (isStaleGrant(seq, marksOf(access))) return { outcome: 'stale', accessLevel: null, events: await recordEvents(tx, platformId, []) };
        await tx.execute(
          `update audiobook_accesses set active = true, granted_seq = greatest(granted_seq, ?),
             granted_at = case when active then granted_at else now() end, updated_at = now() where id = ?`,
          [seq, access.id],
        );
        const events = access.active ? [] : [accessGranted({ participant, resource: { type: 'audiobook', id: audiobookId }, accessLevel: null, source: { kind: 'direct' } })];
        return { outcome: access.active ? 'unchanged' : 'applied', accessLevel: null, events: await recordEvents(tx, platformId, events) };
      });
    },

    async withdrawAudiobookAccess({ platformId, audiobookId, email, seq }: AudiobookRevokeInput): Promise<AccessChange> {
      return orm.em.fork().transactional(async (tx) => {
        const participants: { id: string }[] = await tx.execute('select id from participants where platform_id = ? and email = ?', [platformId, email]);
        const participantId = participants[0]?.id;
        if (!participantId) return { outcome: 'not_enrolled', accessLevel: null, events: [] };
        const access = await lockAccess(tx, platformId, participantId, audiobookId);
        if (isStaleRevoke(seq, marksOf(access))) return { outcome: 'stale', accessLevel: null, events: await recordEvents(tx, platformId, []) };
        await tx.execute('update audiobook_accesses set active = false, revoked_seq = greatest(revoked_seq, ?), updated_at = now() where id = ?', [seq, access.id]);
        const events = access.active
          ? [accessRevoked({ participant: { id: participantId, email }, resource: { type: 'audiobook', id: audiobookId }, accessLevel: null, source: { kind: 'direct' } })]
          : [];
        return { outcome: access.active ? 'applied' : 'not_enrolled', accessLevel: null, events: await recordEvents(tx, platformId, events) };
      });
    },
  };
}
