import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { Runtime } from '@temporalio/worker';
import { workerMetrics } from '../activities/shared/metrics.ts';

/**
 * The worker's `/metrics` (README "Metrics"): our counters (activities/shared/metrics.ts) followed
 * by the Temporal SDK's runtime metrics (`temporal_*`: polls, task latencies, slots, sticky cache),
 * which the SDK's core serves on a loopback port of its own and we read on each scrape, so one
 * scrape target has both.
 */
export interface WorkerMetrics {
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Installs the SDK runtime with its Prometheus exporter on a free loopback port. Call it before
 * the first connection to Temporal (the runtime is made once per process). Returns the core's
 * own metrics address.
 */
export async function installRuntimeMetrics(): Promise<string> {
  const port = await freeLoopbackPort();
  Runtime.install({ telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } } });
  return `http://127.0.0.1:${port}/metrics`;
}

export async function startWorkerMetricsServer({ host, port, coreMetricsUrl }: { host: string; port: number; coreMetricsUrl: string | null }): Promise<WorkerMetrics> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n');
      return;
    }
    void scrape(coreMetricsUrl).then(
      (text) => response.writeHead(200, { 'content-type': workerMetrics.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${String(error)}\n`),
    );
  });
  const listen = (onPort: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(onPort, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  // A second worker on the same host (a scale-out, the bench) takes a free port instead of failing; the address is printed.
  await listen(port).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' || port === 0) throw error;
    return listen(0);
  });
  const address = server.address() as net.AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Ours, then the core's; the core's being unreachable for a moment leaves ours. */
async function scrape(coreMetricsUrl: string | null): Promise<string> {
  const ours = await workerMetrics.metrics();
  if (!coreMetricsUrl) return ours;
  const core = await fetch(coreMetricsUrl, { signal: AbortSignal.timeout(5_000) }).then((r) => (r.ok ? r.text() : ''), () => '');
  return `${ours.trimEnd()}\n${core}`;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
