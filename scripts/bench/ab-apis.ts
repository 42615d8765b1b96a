/** What the A/B scripts (ab-orders.ts, ab-checkout.ts) share: an api process of a checkout. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { migrate, openOrm } from '../../db/orm.ts';
import { createFreshDatabase, REPO_ROOT } from '../stack/postgres.ts';

/** The api of the checkout at `root` in a process of its own (ab-api-process.ts); resolves once it listens. */
export function startApi(root: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/bench/ab-api-process.ts'), root], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api of ${root} exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const url = /listening (\S+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ child, url });
    });
  });
}


export interface AbApis {
  a: { child: ChildProcess; url: string };
  b: { child: ChildProcess; url: string };
  adminToken: string;
  database: { url: string; name: string };
}

/**
 * Runs `body` with the apis of two checkouts (A and B) on one fresh database (made from
 * DATABASE_URL, migrated by this checkout), pools of 10; then stops both and drops the database.
 */
export async function withAbApis(rootA: string, rootB: string, prefix: string, body: (ab: AbApis) => Promise<void>): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed');
  const database = await createFreshDatabase(serverUrl, prefix);
  const children: ChildProcess[] = [];
  try {
    const migrator = await openOrm({ databaseUrl: database.url, poolMax: 1 });
    await migrate(migrator).finally(() => migrator.close());
    const adminToken = randomBytes(24).toString('base64url');
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, ADMIN_TOKEN: adminToken, DATABASE_POOL_MAX: '10' };
    delete env.NODE_OPTIONS;
    const [a, b] = await Promise.all([startApi(rootA, env), startApi(rootB, env)]);
    children.push(a.child, b.child);
    await body({ a, b, adminToken, database });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await database.drop();
  }
}
