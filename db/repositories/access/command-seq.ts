import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Takes `count` numbers from the access command sequence in one round trip. They order grant and
 * revoke commands as the API accepted them (domain/access-commands.ts).
 */
export async function nextCommandSeqs(em: EntityManager, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows: { seq: string }[] = await em.execute("select nextval('access_command_seq') as seq from generate_series(1, ?)", [count]);
  return rows.map((r) => Number(r.seq));
}
