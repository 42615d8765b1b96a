/**
 * Local stand-ins of the mail providers, as real servers on 127.0.0.1: provider_a and provider_c
 * as HTTP JSON APIs, provider_b and the platform relay as SMTP servers (smtp-server). They speak
 * the protocols in adapters/mail/ and keep what arrived for the tests to check.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { DEFAULT_MAIL_ENDPOINTS, type MailEndpoints } from '../../domain/shared/mail-endpoints.ts';

// ----- MIME (what nodemailer writes: headers, multipart/alternative, quoted-printable or base64)

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

function decodeWords(value: string): string {
  // RFC 2047: the white space between two encoded words is not part of the text.
  return value.replace(/(\?=)\s+(?==\?utf-8\?)/gi, '$1').replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } catch {
    return bytes;
  }
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitHeaders(raw);
  const parts: { type: string; content: string }[] = [];
  const collect = (partHeaders: Record<string, string>, partBody: string) => {
    const type = partHeaders['content-type'] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      for (const chunk of partBody.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith('--')) break;
        const inner = splitHeaders(chunk.replace(/^\r?\n/, ''));
        collect(inner.headers, inner.body);
      }
    } else {
      parts.push({ type: type.toLowerCase(), content: decodeBody(partHeaders, partBody).trim() });
    }
  };
  collect(headers, body);
  return {
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: parts.find((p) => p.type.startsWith('text/plain'))?.content ?? '',
    html: parts.find((p) => p.type.startsWith('text/html'))?.content ?? '',
  };
}

// ----- SMTP (provider_b and the platform's relay)

export interface ReceivedSmtpMail extends ParsedMail {
  from: string;
  to: string[];
  /** The SMTP user that sent it, or null without authentication. */
  user: string | null;
}

export interface SmtpStandIn {
  port: number;
  received: ReceivedSmtpMail[];
  /** The next `n` messages are answered `451 try again later`. */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (no TLS). With `users`, AUTH is required and checked (535 otherwise). */
export async function startSmtpStandIn({ users }: { users?: Record<string, string> } = {}): Promise<SmtpStandIn> {
  const received: ReceivedSmtpMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: users ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !users,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (users && auth.username !== undefined && users[auth.username] === auth.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
        received.push({
          ...parsed,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    failNext(n) {
      failures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ----- HTTP APIs (provider_a, provider_c)

export interface ReceivedApiCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface HttpStandIn {
  url: string;
  calls: ReceivedApiCall[];
  /** Accepted sends, one per idempotency key. */
  sent: ReceivedApiCall[];
  /** The next `n` sends are answered with `status` (503 by default). */
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

interface HttpStandInSpec {
  /** Whether a request's credentials are the right ones. */
  authorized(headers: IncomingMessage['headers']): boolean;
  /** Path of the send call and the id member of its reply. */
  sendPath: string;
  idMember: string;
  /** Path of the verification call, if the provider has one. */
  verifyPath?: string;
}

async function startHttpStandIn(spec: HttpStandInSpec): Promise<HttpStandIn> {
  const calls: ReceivedApiCall[] = [];
  const sent: ReceivedApiCall[] = [];
  const byKey = new Map<string, string>();
  let failures = 0;
  let failStatus = 503;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const call: ReceivedApiCall = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : null };
      calls.push(call);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!spec.authorized(req.headers)) return reply(401, { error: 'invalid credentials' });
      if (spec.verifyPath && req.method === 'GET' && call.path.endsWith(spec.verifyPath)) return reply(200, { status: 'active' });
      if (req.method === 'POST' && call.path.endsWith(spec.sendPath)) {
        if (failures > 0) {
          failures -= 1;
          return reply(failStatus, { error: 'temporarily unavailable' });
        }
        const key = String(req.headers['idempotency-key'] ?? '');
        const known = byKey.get(key);
        if (known) return reply(200, { [spec.idMember]: known });
        const id = `msg-${sent.length + 1}`;
        if (key) byKey.set(key, id);
        sent.push(call);
        return reply(202, { [spec.idMember]: id });
      }
      return reply(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    sent,
    failNext(n, status = 503) {
      failures = n;
      failStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const PROVIDER_A_KEYS = { app_key: 'a-app-key-1', secret_key: 'a-secret-key-1' };
export const PROVIDER_B_USER = { smtp_username: 'b-smtp-user', smtp_password: 'b-smtp-password-1' };
export const PROVIDER_C_KEYS = { application_key: 'c-application-key-1', authorization_key: 'c-authorization-key-1' };

/** provider_a: Basic auth with the accepted key pairs (the set can change during a test). */
export function startProviderA(accepted: { app_key: string; secret_key: string }[] = [PROVIDER_A_KEYS]): Promise<HttpStandIn> {
  return startHttpStandIn({
    authorized: (headers) =>
      accepted.some((k) => headers.authorization === `Basic ${Buffer.from(`${k.app_key}:${k.secret_key}`).toString('base64')}`),
    verifyPath: '/account',
    sendPath: '/send',
    idMember: 'message_id',
  });
}

export function startProviderC(keys = PROVIDER_C_KEYS): Promise<HttpStandIn> {
  return startHttpStandIn({
    authorized: (headers) => headers['x-application-key'] === keys.application_key && headers.authorization === `Bearer ${keys.authorization_key}`,
    sendPath: '/messages',
    idMember: 'id',
  });
}

export const SIMULATOR = 'success@simulator.provider-b.test';

export interface ProviderStandIns {
  a: HttpStandIn;
  b: SmtpStandIn;
  c: HttpStandIn;
  /** The platform's default SMTP relay. */
  relay: SmtpStandIn;
  endpoints: MailEndpoints;
  close(): Promise<void>;
}

/** All four stand-ins and the endpoints that point at them (provider_b's host is 127.0.0.1 for every region). */
export async function startProviderStandIns({ withRelay = true }: { withRelay?: boolean } = {}): Promise<ProviderStandIns> {
  const [a, b, c, relay] = await Promise.all([
    startProviderA(),
    startSmtpStandIn({ users: { [PROVIDER_B_USER.smtp_username]: PROVIDER_B_USER.smtp_password } }),
    startProviderC(),
    startSmtpStandIn(),
  ]);
  const endpoints: MailEndpoints = {
    ...DEFAULT_MAIL_ENDPOINTS,
    providerAApiUrl: a.url,
    providerBSmtpHost: '127.0.0.1',
    providerBSmtpPort: b.port,
    providerBSmtpTls: 'none',
    providerBSimulatorAddress: SIMULATOR,
    providerCApiUrl: c.url,
    ...(withRelay ? { defaultSmtpUrl: `smtp://127.0.0.1:${relay.port}?ignoreTLS=true` } : {}),
    defaultFrom: 'platform@coursehub.test',
    timeoutMs: 5_000,
  };
  return { a, b, c, relay, endpoints, close: async () => void (await Promise.all([a.close(), b.close(), c.close(), relay.close()])) };
}
