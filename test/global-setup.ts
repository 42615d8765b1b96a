/**
 * Brings up the real dependencies once per `npm test`: a fresh database on DATABASE_URL's server
 * (or on an embedded PostgreSQL), migrated, and a Temporal dev server (or TEMPORAL_ADDRESS).
 * Test files receive the addresses through `inject()`.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { migrate, openOrm } from '../db/orm.ts';
import { createFreshDatabase, startEmbeddedPostgres } from '../scripts/stack/postgres.ts';
import { startStripeMock } from '../scripts/stack/stripe-mock.ts';
import { startTemporalDevServer } from '../scripts/stack/temporal.ts';
import { startThrowawayCluster } from '../scripts/stack/throwaway-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    /** stripe-mock's `http://127.0.0.1:<port>` (the Stripe SDK's host and port in tests). */
    stripeMockUrl: string;
  }
}

const log = (line: string) => console.log(`[test stack] ${line}`);

export default async function setup(project: TestProject) {
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(err));
  };
  try {
    let baseUrl = process.env.DATABASE_URL;
    if (!baseUrl) {
      log('starting embedded PostgreSQL');
      const pg = await startEmbeddedPostgres({ dataDir: fileURLToPath(new URL('../.data/test-postgres', import.meta.url)) });
      stops.push(pg.stop);
      baseUrl = pg.adminUrl;
    }
    const database = await createFreshDatabase(baseUrl, 'coursehub_test');
    stops.push(database.drop);
    const orm = await openOrm({ databaseUrl: database.url, poolMax: 2 });
    await migrate(orm);
    await orm.close();
    project.provide('databaseUrl', database.url);

    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!temporalAddress && process.env.TEST_TEMPORAL === 'cluster') {
      // `npm run test:cluster`: the Temporal server users deploy, on PostgreSQL databases of its own.
      const cluster = await startThrowawayCluster({ postgresUrl: baseUrl, prefix: 'coursehub_temporal', stateRoot: fileURLToPath(new URL('../.data/test-cluster', import.meta.url)), log });
      stops.push(cluster.stop);
      temporalAddress = cluster.address;
    }
    if (!temporalAddress) {
      log('starting Temporal dev server (in memory)');
      const temporal = await startTemporalDevServer({ log });
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
    }
    project.provide('temporalAddress', temporalAddress);
    const stripeMock = await startStripeMock((line) => log(`stripe-mock: ${line}`));
    stops.push(stripeMock.stop);
    project.provide('stripeMockUrl', stripeMock.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
