/**
 * `npm run histories:record`: records the histories the replay test (test/workflows/replay.test.ts)
 * runs the workflow code over, into `test/workflows/histories/<workflow type>.<date>.json`: one file per
 * type and day, a generation of that type's code, beside the older ones (each replays as long as runs
 * of its code can be open; then it goes to `retired/`, workflows/README.md). Each scenario
 * of scripts/histories/scenarios.ts runs on a Temporal dev server of its own (in memory; or
 * TEMPORAL_ADDRESS) with today's workflow code and fake activities; every run of a workflow id
 * (continue-as-new included) is kept. Run it after a change that went out behind `patched()`
 * (README, "Deploying"), and commit the files. `npm run histories:record -- <type> ...` records the
 * scenarios of those workflow types only; a second recording the same day replaces that day's file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { bundleWorkflows, createWorker } from '../worker/create-worker.ts';
import { historyToJson } from './histories/history-json.ts';
import { fakeActivities, scenarios } from './histories/scenarios.ts';
import { REPO_ROOT } from './stack/postgres.ts';
import { startTemporalDevServer } from './stack/temporal.ts';

export const HISTORIES_DIR = path.join(REPO_ROOT, 'test', 'workflows', 'histories');

interface RecordedRun {
  scenario: string;
  workflowId: string;
  /** 1 for the first run of the id, 2 for the run it continued as, ... */
  run: number;
  history: unknown;
}

const log = (line: string) => console.log(`[histories] ${line}`);
const onlyTypes = process.argv.slice(2);
const chosen = onlyTypes.length === 0 ? scenarios : scenarios.filter((s) => onlyTypes.includes(s.type));

/** Every run of the workflow id, from its first, following continue-as-new. */
async function runsOf(client: Client, handle: WorkflowHandleWithFirstExecutionRunId, scenario: string): Promise<RecordedRun[]> {
  const runs: RecordedRun[] = [];
  let runId: string | null | undefined = handle.firstExecutionRunId;
  while (runId) {
    const history = await client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    runs.push({ scenario, workflowId: handle.workflowId, run: runs.length + 1, history: historyToJson(history) });
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

async function main() {
  const server = process.env.TEMPORAL_ADDRESS ? { address: process.env.TEMPORAL_ADDRESS, stop: async () => undefined } : await startTemporalDevServer({ log });
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    const connection = await NativeConnection.connect({ address: server.address });
    const client = new Client({ connection: await Connection.connect({ address: server.address }), namespace: 'default' });
    const taskQueue = `record-histories-${randomUUID().slice(0, 8)}`;
    const worker = await createWorker({ connection, namespace: 'default', taskQueue, activities: fakeActivities, workflowBundle: await bundleWorkflows() });
    const recorded = await worker.runUntil(async () => {
      // The worker's first workflow task loads the bundle: taken before the scenarios' clocks run.
      await client.workflow.execute('automaticOrderStatus', { taskQueue, workflowId: `warm-up-${taskQueue}`, args: [{ shopId: 'warm-up', orderId: 0, fromStatusId: 0, expectedChangeId: null, toStatusId: 0, dueAt: new Date(0).toISOString() }] });
      return Promise.all(
        chosen.map(async (scenario) => {
          const handle = await scenario.run({ client, taskQueue });
          const runs = await runsOf(client, handle, scenario.name);
          log(`${scenario.type}: ${runs.length} run(s), ${runs.map((r) => (r.history as { events: unknown[] }).events.length).join(' + ')} events: ${scenario.name}`);
          return { type: scenario.type, runs };
        }),
      );
    });
    await client.connection.close();
    await connection.close();

    mkdirSync(HISTORIES_DIR, { recursive: true });
    const byType = new Map<string, RecordedRun[]>();
    for (const { type, runs } of recorded) byType.set(type, [...(byType.get(type) ?? []), ...runs]);
    const day = new Date().toISOString().slice(0, 10);
    for (const [type, runs] of byType) {
      const file = path.join(HISTORIES_DIR, `${type}.${day}.json`);
      writeFileSync(file, `${JSON.stringify({ workflowType: type, recordedAt: new Date().toISOString(), runs }, null, 1)}\n`);
      log(`wrote ${path.relative(REPO_ROOT, file)}`);
    }
  } finally {
    await server.stop();
  }
}

await main();
