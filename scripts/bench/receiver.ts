/**
 * A local webhook receiver on 127.0.0.1 for the shop parts: answers 200 (after `delayMs` for the
 * paths given), and keeps per request its path, `webhook-id`, whether it was signed, and when its
 * body arrived (epoch ms). The worker reaches it through WEBHOOK_PRIVATE_ALLOWLIST=127.0.0.1/32
 * (scripts/bench/stack.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { epochMs } from './load.ts';

export interface Received {
  path: string;
  webhookId: string;
  signed: boolean;
  atEpochMs: number;
}

export interface BenchReceiver {
  url(path: string): string;
  received(): Received[];
  /** Requests to `path` answer after `ms`. */
  delay(path: string, ms: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<BenchReceiver> {
  const received: Received[] = [];
  const delays = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        webhookId: String(req.headers['webhook-id'] ?? ''),
        signed: typeof req.headers['webhook-signature'] === 'string' && typeof req.headers['x-webhook-signature'] === 'string',
        atEpochMs: epochMs(),
      });
      const reply = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const delay = delays.get(path);
      if (delay) setTimeout(reply, delay);
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: () => received,
    delay: (path, ms) => void delays.set(path, ms),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
