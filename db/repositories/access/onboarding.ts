import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../shared/pooled-transaction.ts';
import { AWAITING_DELIVERY } from '../shared/mail-log.ts';

/** Participants as the grant activities find and create them. */

/** The mail log's dedupe key of a participant's invitation: one per participant, ever. */
export const invitationDedupeKey = (participantId: string): string => `invitation/${participantId}`;
/** `invitationDedupeKey` of the `participants` row a statement is at. */
const INVITATION_KEY_SQL = `'invitation/' || participants.id`;

export interface UpsertedParticipant {
  id: string;
  invited_at: Date | null;
  name: string | null;
  /** This statement inserted the row. */
  created: boolean;
  /** The participant's invitation as this statement's snapshot shows it (null: none recorded there). */
  invitation: { id: string; awaiting: boolean } | null;
}

/**
 * Creates the participant when absent, in one statement: two grants for a new e-mail both land on
 * the same row (unique platform + e-mail); a missing name is filled in. With it, the participant's
 * invitation and whether it awaits delivery, as of the statement's snapshot: one committed by the
 * transaction whose row lock the upsert waited for is not in it.
 */
export async function upsertParticipant(tx: Sql, platformId: string, email: string, name: string | null): Promise<UpsertedParticipant | undefined> {
  const rows: UpsertedParticipant[] = await tx.execute(
    `insert into participants (id, platform_id, email, name, created_at)
     values (gen_random_uuid(), ?, ?, ?, now())
     on conflict (platform_id, email) do update set name = coalesce(participants.name, excluded.name)
     returning id, invited_at, name, (xmax = 0) as created,
       (select json_build_object('id', m.id, 'awaiting', m.status in ${AWAITING_DELIVERY}) from mail_log m
         where m.platform_id = participants.platform_id and m.dedupe_key = ${INVITATION_KEY_SQL}) as invitation`,
    [platformId, email, name],
  );
  return rows[0];
}

export async function participantIdByEmail(tx: EntityManager, platformId: string, email: string): Promise<string | undefined> {
  const rows: { id: string }[] = await tx.execute('select id from participants where platform_id = ? and email = ?', [platformId, email]);
  return rows[0]?.id;
}

/** What a participant's invitation is written from. */
export interface InvitationFacts {
  email: string;
  name: string | null;
  invited_at: Date | null;
  subdomain: string;
  platform_title: string;
  /** The title of the course the invitation is about, when there is one of this platform. */
  course_title: string | null;
}

/** The participant (row locked until the transaction ends), its platform and the course, in one statement. */
export async function lockInvitationFacts(tx: Sql, platformId: string, participantId: string, courseId: string | null): Promise<InvitationFacts | undefined> {
  const rows: InvitationFacts[] = await tx.execute(
    `select p.email, p.name, p.invited_at, pl.subdomain, pl.title as platform_title, c.title as course_title
       from participants p
       join platforms pl on pl.id = p.platform_id
       left join courses c on c.id = ? and c.platform_id = p.platform_id
      where p.id = ? and p.platform_id = ?
      for update of p`,
    [courseId, participantId, platformId],
  );
  return rows[0];
}

/**
 * Records the invitation on a participant not invited yet (row locked until the transaction ends)
 * and returns what the invitation is written from, in one statement; undefined when the
 * participant was invited already (or is not the platform's): then `lockInvitationFacts` tells which.
 */
export async function markInvitedWithFacts(
  tx: Sql,
  { platformId, participantId, courseId, at, loginTokenHash }: { platformId: string; participantId: string; courseId: string | null; at: Date; loginTokenHash: string },
): Promise<InvitationFacts | undefined> {
  const rows: InvitationFacts[] = await tx.execute(
    `update participants p set invited_at = ?, login_token_hash = ?
       from platforms pl
       left join courses c on c.id = ? and c.platform_id = pl.id
      where pl.id = p.platform_id and p.id = ? and p.platform_id = ? and p.invited_at is null
     returning p.email, p.name, p.invited_at, pl.subdomain, pl.title as platform_title, c.title as course_title`,
    [at, loginTokenHash, courseId, participantId, platformId],
  );
  return rows[0];
}
