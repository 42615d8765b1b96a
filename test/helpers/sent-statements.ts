import pg from 'pg';
import { vi } from 'vitest';

/** A statement as the driver's client sent it, and whether as a named (prepared) statement. */
export interface SentStatement {
  text: string;
  prepared: boolean;
}

/**
 * The statements sent while `work` runs, read on the driver's client: the ORM's and the prepared
 * ones sent beside its query path alike (db/repositories/shared/pooled-transaction.ts).
 */
export async function statementsSent(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const statements: SentStatement[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const c = config as { text?: unknown; name?: unknown } | string | null;
    if (typeof c === 'string') statements.push({ text: c, prepared: false });
    else if (typeof c?.text === 'string') statements.push({ text: c.text, prepared: c.name !== undefined });
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return statements;
}
