/**
 * The "nothing comes back" search (issue 29): every text, JSON and array column of every table in
 * the test database, read as text, searched for the given values (any letter case). A table added
 * later that keeps a person's data fails the tests that use it until the erasure registry has an
 * entry for it.
 */
import type { Orm } from '../../db/orm.ts';

export interface Finding {
  table: string;
  needle: string;
  /** One row that holds it, as text (to see which column and why). */
  row: string;
}

export async function searchEveryTable(orm: Orm, needles: readonly string[]): Promise<Finding[]> {
  const em = orm.em.fork();
  const columns: { table_name: string; column_name: string }[] = await em.execute(
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'inet', 'USER-DEFINED')
      order by table_name, ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  const findings: Finding[] = [];
  for (const [table, cols] of byTable) {
    const row = cols.map((c) => `coalesce("${c}"::text, '')`).join(` || ' ' || `);
    const checks = needles.map((_, i) => `bool_or(${row} ilike ?) as n${i}`).join(', ');
    const [hit]: Record<string, boolean | null>[] = await em.execute(`select ${checks} from "${table}"`, needles.map((n) => `%${n.replace(/[\\%_]/g, '\\$&')}%`));
    for (const [i, needle] of needles.entries()) {
      if (!hit?.[`n${i}`]) continue;
      const [sample]: { row: string }[] = await em.execute(`select left(t::text, 600) as row from "${table}" t where ${row} ilike ? limit 1`, [`%${needle.replace(/[\\%_]/g, '\\$&')}%`]);
      findings.push({ table, needle, row: sample?.row ?? '' });
    }
  }
  return findings;
}
