/**
 * The HTTP load generator as seen from the bench: a worker thread (http-load-thread.ts) with its
 * own event loop, so that building requests and reading replies does not run on the loop of the
 * API it measures. No dependency beyond node:http.
 */
import { Worker } from 'node:worker_threads';
import type { LoadResult } from './load.ts';

export interface HttpJob {
  id: number;
  method: 'GET' | 'POST' | 'PATCH';
  /** Must point at 127.0.0.1. */
  url: string;
  /** One URL per request (each on url's host), instead of `url` for all: the job makes exactly that many requests. */
  urls?: string[];
  headers: Record<string, string>;
  /** One JSON body per request; the job then makes exactly that many requests (or fewer when the time is up). */
  bodies?: string[];
  /** Closed loop: this many requests in flight at a time. Ignored in open loop. */
  concurrency: number;
  /**
   * Open loop: one request (one of `bodies` or `urls`, one of them required) every 1/ratePerSecond s whatever
   * the replies; startsEpochMs then holds when each was due. Unset: closed loop.
   */
  ratePerSecond?: number;
  /** Closed loop: no request starts after this. Open loop: the schedule's length (bodies / rate); the job's timeout counts from it. */
  durationMs: number;
  expectStatus: number;
  /** Keep each request's start time (epoch ms) and reply body, by request index. */
  record?: boolean;
}

export interface HttpJobReply {
  id: number;
  result: LoadResult;
  startsEpochMs?: number[];
  replies?: string[];
  /** Open loop: how late requests left against their schedule (the load thread's own lag), p99 ms. */
  startLagP99Ms?: number;
}

type ThreadMessage = HttpJobReply | { id: number; error: string };

export interface HttpLoad {
  run(job: Omit<HttpJob, 'id'>): Promise<HttpJobReply>;
  close(): Promise<void>;
}

/** Extra time a job may take beyond its duration (the last requests finishing) before we give up. */
const JOB_GRACE_MS = 30_000;

export function startHttpLoadThread(): HttpLoad {
  // tsx registers its loader in this thread only: the thread registers it for itself first.
  const threadFile = new URL('./http-load-thread.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(threadFile)}); });`;
  const thread = new Worker(source, { eval: true });

  let nextId = 1;
  const pending = new Map<number, { resolve(reply: HttpJobReply): void; reject(error: Error): void }>();
  const failAll = (error: Error) => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  thread.on('message', (message: ThreadMessage) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if ('error' in message) entry.reject(new Error(`HTTP load thread: ${message.error}`));
    else entry.resolve(message);
  });
  thread.on('error', (error) => failAll(error));
  thread.on('exit', (code) => failAll(new Error(`HTTP load thread exited (code ${code})`)));

  return {
    run(job) {
      const id = nextId++;
      return new Promise<HttpJobReply>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`HTTP load job ${job.method} ${job.url} did not finish in time`));
        }, job.durationMs + JOB_GRACE_MS);
        pending.set(id, {
          resolve: (reply) => (clearTimeout(timer), resolve(reply)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
        thread.postMessage({ ...job, id } satisfies HttpJob);
      });
    },
    async close() {
      await thread.terminate();
    },
  };
}
