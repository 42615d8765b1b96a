import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../shared/pooled-transaction.ts';
import { AudiobookAccess, type IAudiobookAccess, type IParticipant } from '../../entities/index.ts';

/** Audiobook access as the grant and revoke activities change it, inside the caller's transaction. */

export interface AudiobookAccessRow {
  id: string;
  active: boolean;
  granted_seq: string;
  revoked_seq: string;
}

export async function audiobookExists(tx: Sql, platformId: string, audiobookId: string): Promise<boolean> {
  const rows: unknown[] = await tx.execute('select 1 from audiobooks where id = ? and platform_id = ?', [audiobookId, platformId]);
  return rows.length > 0;
}

/** The access row (inactive when new), locked for the transaction. */
export async function lockAudiobookAccess(tx: Sql, platformId: string, participantId: string, audiobookId: string): Promise<AudiobookAccessRow> {
  await tx.execute(
    `insert into audiobook_accesses (id, platform_id, participant_id, audiobook_id, active, granted_at, granted_seq, revoked_seq, updated_at)
     values (gen_random_uuid(), ?, ?, ?, false, now(), 0, 0, now())
     on conflict (participant_id, audiobook_id) do nothing`,
    [platformId, participantId, audiobookId],
  );
  const rows: AudiobookAccessRow[] = await tx.execute(
    'select id, active, granted_seq, revoked_seq from audiobook_accesses where participant_id = ? and audiobook_id = ? for update',
    [participantId, audiobookId],
  );
  return rows[0]!;
}

/** Active, remembering the grant's sequence number; `granted_at` is when access started. */
export async function activateAudiobookAccess(tx: Sql, accessId: string, seq: number): Promise<void> {
  await tx.execute(
    `update audiobook_accesses set active = true, granted_seq = greatest(granted_seq, ?),
       granted_at = case when active then granted_at else now() end, updated_at = now() where id = ?`,
    [seq, accessId],
  );
}

/** Inactive, remembering the revoke's sequence number. */
export async function deactivateAudiobookAccess(tx: EntityManager, accessId: string, seq: number): Promise<void> {
  await tx.execute('update audiobook_accesses set active = false, revoked_seq = greatest(revoked_seq, ?), updated_at = now() where id = ?', [seq, accessId]);
}

/** The participant's active audiobook access, oldest grant first. */
export function activeAudiobookAccessOf(em: EntityManager, participant: IParticipant): Promise<IAudiobookAccess[]> {
  return em.find(AudiobookAccess, { participant, active: true }, { orderBy: { grantedAt: 'asc' } });
}
