import type { Sql } from '../shared/pooled-transaction.ts';

/**
 * When the participant was invited, and whether they have used the platform since: viewed a course, completed a lesson or
 * submitted a quiz. The service records no sign-in, so this is how "invited but never came" is
 * told apart from an active learner (the reinvitation on a new grant, docs/decisions/).
 */
export async function invitationAnswer(em: Sql, participantId: string): Promise<{ invitedAt: Date | null; usedPlatform: boolean }> {
  const [row] = await em.execute<{ invited_at: string | Date | null; used: boolean }[]>(
    `select p.invited_at,
            exists (select 1 from enrolments where participant_id = p.id and viewed_at is not null)
         or exists (select 1 from lesson_completions where participant_id = p.id)
         or exists (select 1 from quiz_results where participant_id = p.id) as used
       from participants p where p.id = ?`,
    [participantId],
  );
  return { invitedAt: row?.invited_at ? new Date(row.invited_at) : null, usedPlatform: row?.used === true };
}
