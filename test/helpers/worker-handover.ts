/**
 * The stack of the tests that kill a worker mid-delivery (SIGKILL) and let another take over: an
 * app without a worker of its own, a webhook receiver on loopback, a first worker in a process of
 * its own (to be killed) and a second one in this process, both with the real activities, the
 * loopback allowlist and a short retry schedule. Started before the file's tests, stopped after.
 */
import { afterAll, beforeAll } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { parseCidrList } from '../../domain/shared/ip-ranges.ts';
import { PLATFORM_URL_TEMPLATE, startTestApp, startTestWorker, type RunningWorker, type TestStack } from './stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { spawnWorkerProcess, type WorkerProcess } from './worker-process.ts';

export interface WorkerHandover {
  stack: TestStack;
  receiver: WebhookReceiver;
  /** The first worker, ready; a request it sends may hang until it is killed (its timeout is a minute). */
  startFirst(): Promise<WorkerProcess>;
  /** The worker that takes over. */
  startSecond(): Promise<RunningWorker>;
}

export function useWorkerHandover(name: string): WorkerHandover {
  let stack: TestStack | undefined;
  let receiver: WebhookReceiver | undefined;
  let first: WorkerProcess | undefined;
  let second: RunningWorker | undefined;
  const handover: WorkerHandover = {
    get stack() {
      return started(stack, 'the stack');
    },
    get receiver() {
      return started(receiver, 'the webhook receiver');
    },
    startFirst: async () => {
      first = spawnWorkerProcess({ taskQueue: handover.stack.taskQueue, env: { WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1/32', WEBHOOK_RETRY_SCHEDULE: '200ms,200ms', WEBHOOK_TIMEOUT_MS: '60000' } });
      await first.ready;
      return first;
    },
    startSecond: async () => {
      const { taskQueue, orm } = handover.stack;
      const webhooks = { allowlist: parseCidrList('127.0.0.1/32'), retrySchedule: [200, 200], timeoutMs: 5000 };
      second = await startTestWorker({ taskQueue, activities: createActivities({ orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, webhooks }) });
      return second;
    },
  };
  beforeAll(async () => {
    stack = await startTestApp(name);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await first?.kill('SIGKILL');
    await second?.stop();
    await receiver?.close();
    await stack?.close();
  });
  return handover;
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is used before the file's beforeAll started it`);
  return value;
}
