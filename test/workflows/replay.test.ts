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
  'deliverClubWebhook',
];

/**
 * Short workflows (seconds) replayed as well: a deploy lands while some are in flight, and their
 * hand-on after the grant step changed (issue 26 item 6: a step result without `invitationDelivery`
 * takes the older path, workflows/access/steps/hand-on.ts), the clearing's one step, the inline
 * first attempts of deliveries (issue 38). They wait on no timer. Histories of retired generations
 * lie in `histories/retired/`, not read here (workflows/README.md, "Generations").
 */
const SHORT_LIVED = [
  'grantCourseAccess',
  'grantAudiobookAccess',
  'fulfilOrder',
  'clearOrder',
  'revokeCourseAccess',
  'revokeAudiobookAccess',
  'cancelOrder',
  'quizResultRecorded',
  'changeOrderStatus',
  'orderPlaced',
  'erasePersonalData',
];

/**
 * Markers only an older branch asks for: a run of today's code takes the branch beside them and
 * never records them. Each goes with its branch (docs/decisions/mail-and-webhooks.md, "Retired workflow
 * generations": deliverShopWebhook's branches before `shop-webhook-one-activity`, from 2026-12-10).
 */
const OLDER_BRANCH_MARKERS = ['shop-webhook-local-steps', 'shop-webhook-effect-outcome'];

/**
 * Workflow types whose code asks for a marker but that have no recorded histories: none. Checked to
 * stay so: a type that starts asking for one needs its scenario (scripts/histories/scenarios.ts).
 */
const MARKERS_NOT_RECORDED: string[] = [];

interface HistoryEvent {
  eventType?: string;
  markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> };
}

interface HistoriesFile {
  workflowType: string;
  runs: { scenario: string; workflowId: string; run: number; history: { events: HistoryEvent[] } }[];
}

const files: HistoriesFile[] = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as HistoriesFile);

/** The patch ids of a recorded run (`core_patch` markers: `patched()` and `deprecatePatch()`). */
function markersOf(events: readonly HistoryEvent[]): string[] {
  return events.flatMap(({ markerRecordedEventAttributes: marker }) => {
    if (marker?.markerName !== 'core_patch') return [];
    const data = marker.details?.['patch-data']?.payloads?.[0]?.data;
    return data ? [(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { id: string }).id] : [];
  });
}

const WORKFLOWS_DIR = fileURLToPath(new URL('../../workflows/', import.meta.url));

/**
 * The patch ids each workflow type's code asks for (`patched('x')`, `deprecatePatch('x')`), in its
 * file and every workflow module it imports (steps; `import type` and modules outside workflows/
 * left out), by the exports of workflows/index.ts.
 */
function markersInCode(): Map<string, Set<string>> {
  const index = readFileSync(path.join(WORKFLOWS_DIR, 'index.ts'), 'utf8');
  const idsFrom = (file: string, seen: Set<string>): string[] => {
    if (seen.has(file)) return [];
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const own = [...source.matchAll(/\b(?:patched|deprecatePatch)\('([^']+)'\)/g)].map((m) => m[1]!);
    const imported = [...source.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)'/gm)].map((m) => path.resolve(path.dirname(file), m[1]!)).filter((f) => f.startsWith(WORKFLOWS_DIR));
    return [...own, ...imported.flatMap((f) => idsFrom(f, seen))];
  };
  return new Map([...index.matchAll(/export \{ (\w+) \} from '\.\/(.+?)'/g)].map((m) => [m[1]!, new Set(idsFrom(path.join(WORKFLOWS_DIR, m[2]!), new Set()))]));
}

describe('recorded histories of the live paths', () => {
  it('hold, for each workflow type, a run that took each branch its code asks a marker for', () => {
    const recorded = new Map<string, Set<string>>();
    for (const file of files) for (const run of file.runs) for (const id of markersOf(run.history.events)) recorded.set(file.workflowType, (recorded.get(file.workflowType) ?? new Set()).add(id));
    const missing: string[] = [];
    const notRecorded: string[] = [];
    for (const [type, ids] of markersInCode()) {
      const live = [...ids].filter((id) => !OLDER_BRANCH_MARKERS.includes(id));
      if (live.length === 0) continue;
      if (!files.some((f) => f.workflowType === type)) {
        notRecorded.push(type);
        continue;
      }
      for (const id of live) if (!recorded.get(type)?.has(id)) missing.push(`${type}: ${id}`);
    }
    expect(missing, 'record them: npm run histories:record -- <type>').toEqual([]);
    expect(notRecorded.sort()).toEqual(MARKERS_NOT_RECORDED);
  });
});

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
