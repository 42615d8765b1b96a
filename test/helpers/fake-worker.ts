/** A worker with fake activities on the real Temporal server, for the workflow tests of one file. */
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll } from 'vitest';
import type { Activities } from '../../activities/index.ts';
import { connectTemporal, startTestWorker, type RunningWorker } from './stack.ts';

/** Starts the worker before the file's tests and stops it after; `client()` talks to the server. */
export function useFakeWorker(taskQueue: string, activities: Partial<Activities>): { client(): Client } {
  let client: Client | undefined;
  let worker: RunningWorker | undefined;
  beforeAll(async () => {
    client = await connectTemporal();
    worker = await startTestWorker({ taskQueue, activities });
  });
  afterAll(async () => {
    await worker?.stop();
    await client?.connection.close();
  });
  return {
    client() {
      if (!client) throw new Error('the fake worker is not started yet');
      return client;
    },
  };
}
