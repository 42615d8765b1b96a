import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig, type OrmOptions } from './config.ts';

export type Orm = MikroORM;

export function openOrm(options: OrmOptions): Promise<Orm> {
  return MikroORM.init(ormConfig(options));
}

/** Applies every pending committed migration; the schema is never synchronised at run time. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
