import type { EntityManager } from '@mikro-orm/postgresql';

/** Participants as the grant activities find and create them. */

export interface UpsertedParticipant {
  id: string;
  invited_at: Date | null;
  name: string | null;
  /** This statement inserted the row. */
  created: boolean;
}

/**
 * Creates the participant when absent, in one statement: two grants for a new e-mail both land on
 * the same row (unique platform + e-mail); a missing name is filled in.
 */
export async function upsertParticipant(tx: EntityManager, platformId: string, email: string, name: string | null): Promise<UpsertedParticipant | undefined> {
  const rows: UpsertedParticipant[] = await tx.execute(
    `insert into participants (id, platform_id, email, name, created_at)
     values (gen_random_uuid(), ?, ?, ?, now())
     on conflict (platform_id, email) do update set name = coalesce(participants.name, excluded.name)
     returning id, invited_at, name, (xmax = 0) as created`,
    [platformId, email, name],
  );
  return rows[0];
}

export async function participantIdByEmail(tx: EntityManager, platformId: string, email: string): Promise<string | undefined> {
  const rows: { id: string }[] = await tx.execute('select id from participants where platform_id = ? and email = ?', [platformId, email]);
  return rows[0]?.id;
}
