/**
 * A Temporal server built from go.temporal.io/server (temporal-server.ts) for one run: its
 * persistence and visibility on two fresh PostgreSQL databases, its configuration in a folder of
 * its own; `stop()` stops it and drops both databases and the folder. `npm run test:cluster`
 * (test/global-setup.ts) and `npm run bench -- --temporal=cluster` use it.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Log } from './lifecycle.ts';
import { createFreshDatabase } from './postgres.ts';
import { startTemporalCluster } from './temporal-server.ts';

export interface ThrowawayCluster {
  address: string;
  /** The server's current pid (null while it restarts). */
  pid(): number | null;
  /** The persistence and visibility databases' names. */
  databases: string[];
  stop(): Promise<void>;
}

export async function startThrowawayCluster(o: { postgresUrl: string; prefix: string; stateRoot: string; log: Log }): Promise<ThrowawayCluster> {
  const persistence = await createFreshDatabase(o.postgresUrl, o.prefix);
  const cleanups: (() => Promise<void>)[] = [persistence.drop];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const visibility = await createFreshDatabase(o.postgresUrl, `${o.prefix}_vis`);
    cleanups.push(visibility.drop);
    const stateDir = path.join(o.stateRoot, persistence.name);
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    o.log('starting a Temporal server on PostgreSQL');
    const cluster = await startTemporalCluster({
      postgresUrl: o.postgresUrl,
      databases: { persistence: persistence.name, visibility: visibility.name },
      stateDir,
      port: 0,
      uiPort: 0,
      log: o.log,
    });
    return {
      address: cluster.address,
      pid: cluster.pid,
      databases: [persistence.name, visibility.name],
      async stop() {
        await cluster.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
