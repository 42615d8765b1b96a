/**
 * Body of the HTTP load thread (started by http-load.ts): runs closed- and open-loop HTTP jobs against
 * 127.0.0.1 over keep-alive connections and posts the results back. Its own event loop keeps the
 * client's work off the API's loop.
 */
import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import { closedLoop, epochMs, openLoop } from './load.ts';
import type { HttpJob, HttpJobReply } from './http-load.ts';

const REQUEST_TIMEOUT_MS = 15_000;
const agent = new http.Agent({ keepAlive: true });

function send(url: URL, job: HttpJob, body: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { ...job.headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) };
    const req = http.request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: job.method, headers, agent, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (job.record) chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === job.expectStatus) resolve(text);
          else reject(new Error(`HTTP ${res.statusCode} from ${job.method} ${url.pathname}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function run(job: HttpJob): Promise<HttpJobReply> {
  const url = new URL(job.url);
  if (url.hostname !== '127.0.0.1') throw new Error(`the bench only targets 127.0.0.1, not ${url.hostname}`);
  const urls = job.urls?.map((u) => new URL(u));
  if (urls?.some((u) => u.host !== url.host)) throw new Error('every url of a job must be on its url\'s host');
  const urlOf = (index: number) => urls?.[index] ?? url;
  if (job.ratePerSecond !== undefined) return runOpenLoop(urlOf, job, job.ratePerSecond);
  const startsEpochMs: number[] = [];
  const replies: string[] = [];
  const result = await closedLoop({
    concurrency: job.concurrency,
    durationMs: job.durationMs,
    ...(job.bodies || job.urls ? { maxOps: (job.bodies ?? job.urls)!.length } : {}),
    op: async (index) => {
      if (job.record) startsEpochMs[index] = epochMs();
      const reply = await send(urlOf(index), job, job.bodies?.[index]);
      if (job.record) replies[index] = reply;
    },
  });
  return { id: job.id, result, ...(job.record ? { startsEpochMs, replies } : {}) };
}

/** A request every 1/rate s, one per body (or url), whatever the replies; starts are the scheduled times. */
async function runOpenLoop(urlOf: (index: number) => URL, job: HttpJob, ratePerSecond: number): Promise<HttpJobReply> {
  const bodies = job.bodies;
  const count = bodies?.length ?? job.urls?.length;
  if (count === undefined) throw new Error('an open-loop job needs its bodies or urls (one request each)');
  const replies: string[] = [];
  const { scheduledEpochMs, startLagP99Ms, ...result } = await openLoop({
    ratePerSecond,
    count,
    op: async (index) => {
      const reply = await send(urlOf(index), job, bodies?.[index]);
      if (job.record) replies[index] = reply;
    },
  });
  return { id: job.id, result, startLagP99Ms, ...(job.record ? { startsEpochMs: scheduledEpochMs, replies } : {}) };
}

const port = parentPort;
if (!port) throw new Error('http-load-thread.ts runs as a worker thread (see http-load.ts)');
port.on('message', (job: HttpJob) => {
  run(job).then(
    (reply) => port.postMessage(reply),
    (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
