import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { historyFromJson } from '../../scripts/histories/history-json.ts';
import { bundleWorkflows } from '../../worker/create-worker.ts';

/**
 * Replay-safe deploys (README, "Deploying"): the committed histories of every long-running workflow
 * type, recorded from earlier code by `npm run histories:record`, replayed on the workflow code of
 * this checkout. A change that would make a running workflow issue other commands than its history
 * holds (a new activity, timer or child, one removed or reordered, without `patched()`) fails here
 * with the SDK's nondeterminism error, before it reaches a worker with such workflows asleep.
 */
const HISTORIES_DIR = fileURLToPath(new URL('./histories/', import.meta.url));

/** The workflow types that wait for days, months or years: each must have recorded histories. */
const LONG_RUNNING = [
  'subscriberRenewal',
  'mailSequence',
  'courseEnrolmentMails',
  'lessonCompleted',
  'courseMailRollout',
  'timeLimitedDiscount',
  'automaticOrderStatus',
  'deliverWebhook',
  'deliverShopWebhook',
];

/**
 * Short workflows (seconds) replayed as well: a deploy lands while some are in flight, and their
 * hand-on after the grant step changed (issue 26 item 6: a step result without `invitationDelivery`
 * takes the older path, workflows/access/steps/hand-on.ts), the clearing's steps behind
 * `patched('clearing-local-steps')` (item 1). They wait on no timer.
 */
const SHORT_LIVED = ['grantCourseAccess', 'grantAudiobookAccess', 'fulfilOrder', 'clearOrder'];

interface HistoriesFile {
  workflowType: string;
  runs: { scenario: string; workflowId: string; run: number; history: { events: { eventType?: string }[] } }[];
}

const files: HistoriesFile[] = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as HistoriesFile);

describe('recorded histories of the long-running workflows', () => {
  it('cover every long-running workflow type with runs that waited on timers, and the grants', () => {
    const types = files.map((f) => f.workflowType);
    expect(types).toEqual(expect.arrayContaining([...LONG_RUNNING, ...SHORT_LIVED]));
    for (const file of files) {
      expect(file.runs.length, file.workflowType).toBeGreaterThan(0);
      if (SHORT_LIVED.includes(file.workflowType)) continue;
      const events = file.runs.flatMap((r) => r.history.events.map((e) => e.eventType));
      expect(events, file.workflowType).toContain('EVENT_TYPE_TIMER_FIRED');
    }
  });

  it('replay on the current workflow code without a nondeterminism error', async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const histories = files.flatMap((f) => f.runs.map((r) => ({ workflowId: `${r.workflowId} (run ${r.run}: ${r.scenario})`, history: historyFromJson(r.history) })));
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: await bundleWorkflows() }, histories)) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(histories.length);
  }, 120_000);
});
