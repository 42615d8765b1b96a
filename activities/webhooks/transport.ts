import { lookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { addressAllowed, formatIpAddress, parseIpAddress, type Cidr } from '../../domain/shared/ip-ranges.ts';

/**
 * Outgoing webhook HTTP, safe against server-side request forgery (DESIGN.md section 3): the
 * target is resolved once, every address it resolves to is checked, and the connection goes to
 * the checked address itself (no second lookup that could answer differently). Redirects are
 * never followed (node:http does not follow them; a 3xx is an answer like any other).
 */

export type ResolvedTarget =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: string; retryable: boolean };

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A name that has not resolved within this long (the reply timeout, WEBHOOK_TIMEOUT_MS) counts as a DNS failure. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 10_000;

/**
 * The address to connect to, or why none may be used. A name is refused when any of its
 * addresses is refused (a mixed answer is an attack or a mistake either way). A name that does
 * not resolve, or not within `timeoutMs` (the system resolver may retry for minutes, longer than
 * an attempt may take), is a retryable failure whose reason names the DNS error for the history.
 */
export async function resolveTarget(url: URL, allowlist: readonly Cidr[], resolve: Resolver = systemResolver, timeoutMs = DEFAULT_RESOLVE_TIMEOUT_MS): Promise<ResolvedTarget> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = parseIpAddress(hostname);
  let candidates: { address: string; family: number }[];
  if (literal) {
    candidates = [{ address: formatIpAddress(literal), family: literal.family }];
  } else {
    try {
      candidates = await withinTime(resolve(hostname), timeoutMs);
    } catch (error) {
      return { ok: false, reason: `cannot resolve ${hostname}: ${dnsFailure(error)}`, retryable: true };
    }
    if (candidates.length === 0) return { ok: false, reason: `cannot resolve ${hostname}: no addresses`, retryable: true };
  }
  for (const candidate of candidates) {
    const parsed = parseIpAddress(candidate.address);
    if (!parsed) return { ok: false, reason: `refused: ${hostname} resolves to an unreadable address ${candidate.address}`, retryable: false };
    const verdict = addressAllowed(parsed, allowlist);
    if (!verdict.public) {
      const via = literal ? '' : `${hostname} resolves to `;
      return { ok: false, reason: `refused: ${via}${candidate.address} is in the ${verdict.range} range; webhooks are not sent to private or local networks`, retryable: false };
    }
  }
  const first = candidates[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

class ResolveTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** The lookup's answer, or a ResolveTimeout after `ms` (the lookup itself cannot be cancelled). */
function withinTime<T>(lookup: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ResolveTimeout(ms)), ms);
  });
  return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
}

const DNS_MEANINGS: Record<string, string> = {
  ENOTFOUND: 'the name does not exist',
  ENODATA: 'the name has no address',
  EAI_AGAIN: 'temporary DNS failure',
  ESERVFAIL: 'the name server failed',
  ETIMEOUT: 'the name server did not answer',
  ECONNREFUSED: 'the name server refused the query',
};

/** `ENOTFOUND (the name does not exist)`, `EAI_AGAIN (no answer within 10000 ms)`, ... */
function dnsFailure(error: unknown): string {
  if (error instanceof ResolveTimeout) return `EAI_AGAIN (${error.message})`;
  const code = (error as NodeJS.ErrnoException).code;
  if (!code) return (error as Error).message ?? String(error);
  const meaning = DNS_MEANINGS[code];
  return meaning ? `${code} (${meaning})` : code;
}

export interface PinnedRequest {
  url: URL;
  /** The checked address the connection must go to. */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the request (the activity attempt was cancelled or timed out): the socket is destroyed. */
  signal?: AbortSignal;
}

export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The start of the reply body (at most 1 KB), for the attempt's error text. */
  bodyStart: string;
}

/** Sends one POST; rejects on network errors, on the timeout and on `signal` aborting. */
export type WebhookTransport = (request: PinnedRequest) => Promise<TransportResponse>;

const BODY_KEPT = 1024;

/** node:http(s) connected to `request.address`, with `Host` and TLS SNI/certificate name from the URL. */
export const pinnedHttpTransport: WebhookTransport = (request) =>
  new Promise((resolve, reject) => {
    const { url } = request;
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const secure = url.protocol === 'https:';
    const options: https.RequestOptions = {
      method: 'POST',
      host: request.address,
      family: request.family,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...request.headers, host: url.host, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: false,
      // The certificate is checked against the URL's name; SNI carries it (never an IP literal).
      ...(secure && parseIpAddress(hostname) === null ? { servername: hostname } : {}),
      // Belt and braces: should anything ask for a lookup, it gets the checked address only.
      lookup: (_host, opts, callback) => {
        if ((opts as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: request.address, family: request.family }]);
        else callback(null, request.address, request.family);
      },
    };
    const { signal } = request;
    if (signal?.aborted) {
      reject(new Error(`request aborted: ${String(signal.reason)}`));
      return;
    }
    const req = (secure ? https : http).request(options);
    const timer = setTimeout(() => req.destroy(new Error(`no reply within ${request.timeoutMs} ms`)), request.timeoutMs);
    const onAbort = () => req.destroy(new Error(`request aborted: ${String(signal?.reason)}`));
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    req.on('error', (error) => {
      done();
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < BODY_KEPT) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () => {
        done();
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, bodyStart: Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT) });
      });
      res.on('error', (error) => {
        done();
        reject(error);
      });
    });
    req.end(request.body);
  });
