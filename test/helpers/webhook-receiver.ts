/**
 * A webhook receiver on loopback (127.0.0.1, a free port) as a platform would run one: it records
 * every request, checks both signatures independently of the sender's code, and answers as a test
 * tells it per path (a status, headers, or no answer at all).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { PinnedRequest, WebhookTransport } from '../../activities/webhooks/transport.ts';
import { pinnedHttpTransport } from '../../activities/webhooks/transport.ts';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/** A status (after `delayMs`, when given), or no answer at all. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';
export type Responder = (request: ReceivedRequest, nthForPath: number) => Answer;

export interface WebhookReceiver {
  url(path: string): string;
  port: number;
  requests(path?: string): ReceivedRequest[];
  /** How `path` answers; 200 unless told otherwise. */
  on(path: string, responder: Responder): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const sockets = new Set<Socket>();
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      const request = { path, headers: req.headers, body, json, at: Date.now() };
      received.push(request);
      const nth = received.filter((r) => r.path === path).length;
      const answer: Answer = (responders.get(path) ?? ((): Answer => ({ status: 200 })))(request, nth);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      const reply = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(`answer ${answer.status}`);
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('receiver did not listen');
  const port = address.port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: (path) => received.filter((r) => path === undefined || r.path === path),
    on: (path, responder) => void responders.set(path, responder),
    async close() {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Both signatures of a delivery, checked as a receiver following the documented scheme would. */
export function verifySignatures(request: ReceivedRequest, secretKey: string): { xWebhookSignature: boolean; standardWebhooks: boolean } {
  const expectedHex = `sha256=${createHmac('sha256', secretKey).update(request.body).digest('hex')}`;
  const given = String(request.headers['x-webhook-signature'] ?? '');
  const key = secretKey.startsWith('whsec_') ? Buffer.from(secretKey.slice(6), 'base64') : Buffer.from(secretKey);
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const expectedStandard = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  const standard = String(request.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => s.startsWith('v1,') && safeEqual(s.slice(3), expectedStandard));
  return { xWebhookSignature: safeEqual(given, expectedHex), standardWebhooks: standard };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The real transport, except that it refuses (without connecting) any address other than
 * loopback and records every request it was asked to make: no test ever sends traffic off the
 * machine, even if the sender's own checks were broken.
 */
export function loopbackOnlyTransport(): { transport: WebhookTransport; calls: PinnedRequest[] } {
  const calls: PinnedRequest[] = [];
  const transport: WebhookTransport = async (request) => {
    calls.push(request);
    if (request.address !== '127.0.0.1') throw new Error(`test guard: refused to connect to ${request.address}`);
    return pinnedHttpTransport(request);
  };
  return { transport, calls };
}
