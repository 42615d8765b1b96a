import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../shared/pooled-transaction.ts';

/**
 * Takes `count` numbers from the access command sequence in one round trip (an access order's
 * number; grants and revokes take theirs with their row, `recordCommandPeople`).
 */
export async function nextCommandSeqs(em: Sql, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows: { seq: string }[] = await em.execute("select nextval('access_command_seq') as seq from generate_series(1, ?)", [count]);
  return rows.map((r) => Number(r.seq));
}

/**
 * How long a command's row is kept: its step reads it while the step is retried (unbounded retries
 * of a database step while PostgreSQL is away), far longer than a step normally waits.
 */
export const COMMAND_PEOPLE_DAYS = 7;

/** Who a grant or revoke command is for: what its workflow input no longer carries. */
export interface CommandPerson {
  /** Normalised (lower-case) e-mail. */
  email: string;
  name: string | null;
}

/**
 * Records the person of each command under a new number of the access command sequence, in one
 * round trip, and returns the numbers in the order of `people`. They order grant and revoke
 * commands as the API accepted them (domain/access-commands.ts); the command's step reads its
 * person back by (platform, number) (`commandPerson`), so the workflow input holds no address.
 */
export async function recordCommandPeople(em: Sql, platformId: string, people: CommandPerson[]): Promise<number[]> {
  if (people.length === 0) return [];
  const rows: { seq: string }[] = await em.execute(
    `insert into access_command_people (seq, platform_id, email, name)
     select nextval('access_command_seq'), ?, p.v->>'email', p.v->>'name' from jsonb_array_elements(?::jsonb) with ordinality as p(v, i) order by p.i
     returning seq`,
    [platformId, JSON.stringify(people)],
  );
  // Each row takes its number as it is inserted, in the people's order: ascending numbers are theirs in turn.
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}

/** The person of the command numbered `seq` on the platform; null once the hourly cleanup or the person's erasure removed it. */
export async function commandPerson(tx: Sql, platformId: string, seq: number): Promise<CommandPerson | null> {
  const rows: CommandPerson[] = await tx.execute(`select email, name from access_command_people where platform_id = ? and seq = ?`, [platformId, seq]);
  return rows[0] ?? null;
}

/** Removes up to `limit` command rows older than `COMMAND_PEOPLE_DAYS` (the hourly cleanup); returns how many. */
export async function deleteOldCommandPeople(em: EntityManager, limit: number, days = COMMAND_PEOPLE_DAYS): Promise<number> {
  const rows = await em.execute(
    `delete from access_command_people where seq in (select seq from access_command_people where created_at < now() - make_interval(days => ?) limit ? for update skip locked) returning 1`,
    [days, limit],
  );
  return rows.length;
}
