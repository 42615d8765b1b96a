/**
 * The drill's HTTP client over several apis: a request refused or cut by a replaced api goes to
 * the next one; a 503 (and a 409 "still running" for a keyed write) is repeated after a short
 * backoff with the same Idempotency-Key. Every reply other than 2xx is recorded with its status
 * and reason, so the drill can tell which retries were safe.
 */
import { sleep } from '../stack/lifecycle.ts';

export type OperationKind = 'grant' | 'clearing' | 'checkout';

export interface RecordedReply {
  kind: OperationKind;
  /** `POST /api/courses/subscribe`, ... (ids left out). */
  request: string;
  at: number;
  api: number;
  /** The HTTP status, or `network` for a refused or cut connection. */
  status: number | 'network';
  reason: string;
  idempotencyKey: string | null;
  /** A 503 of an api that is closing (Fastify's own reply before any handler, `Connection: close`): nothing ran. */
  draining: boolean;
}

export interface Reply {
  status: number | 'network';
  body: { data?: Record<string, unknown>; error?: unknown } | null;
  /** 503s this request was given (then repeated). */
  unavailable: number;
  /** An attempt before the last may have reached the api (cut connection, 503, 409). */
  repeated: boolean;
}

export interface RequestOptions {
  kind: OperationKind;
  method: string;
  path: string;
  /** The pattern of `path` for the record. */
  label: string;
  headers?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
  /** Repeat after a cut connection (a refused one is always repeated: nothing was sent). */
  repeatWhenCut: boolean;
}

const BACKOFF_MS = 500;
/** Fastify's `return503OnClosing` body's error: what a draining api answers on a kept-alive connection. */
const CLOSING_REASON = 'Service Unavailable';
const REQUEST_TIMEOUT_MS = 30_000;
const GIVE_UP_MS = 90_000;

export class DrillClient {
  readonly replies: RecordedReply[] = [];
  private next = 0;

  constructor(private readonly apiUrls: readonly string[]) {}

  async request(o: RequestOptions): Promise<Reply> {
    let api = this.next++ % this.apiUrls.length;
    let unavailable = 0;
    let repeated = false;
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const headers: Record<string, string> = { ...o.headers, ...(o.body === undefined ? {} : { 'content-type': 'application/json' }), ...(o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {}) };
      const record = (status: number | 'network', reason: string) =>
        this.replies.push({ kind: o.kind, request: `${o.method} ${o.label}`, at: Date.now(), api, status, reason, idempotencyKey: o.idempotencyKey ?? null, draining: status === 503 && reason === CLOSING_REASON });
      let res: Response;
      try {
        res = await fetch(`${this.apiUrls[api]}${o.path}`, { method: o.method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        const code = networkCode(error);
        record('network', code);
        const refused = code === 'ECONNREFUSED';
        if ((!refused && !o.repeatWhenCut) || Date.now() > deadline) return { status: 'network', body: null, unavailable, repeated: repeated || !refused };
        repeated ||= !refused;
        api = (api + 1) % this.apiUrls.length;
        await sleep(100);
        continue;
      }
      const text = await res.text();
      const body = parse(text);
      if (res.ok) return { status: res.status, body, unavailable, repeated };
      record(res.status, reasonOf(body, text));
      const again = res.status === 503 || (res.status === 409 && o.idempotencyKey !== undefined && res.headers.get('retry-after') !== null);
      if (!again || Date.now() > deadline) return { status: res.status, body, unavailable, repeated };
      if (res.status === 503 && reasonOf(body, text) !== CLOSING_REASON) unavailable++;
      repeated = true;
      await sleep(res.status === 503 ? BACKOFF_MS * Math.min(unavailable, 4) : 1_000);
    }
  }
}

function networkCode(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (current.name === 'TimeoutError') return 'timeout';
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

function parse(text: string): Reply['body'] {
  try {
    return JSON.parse(text) as Reply['body'];
  } catch {
    return null;
  }
}

function reasonOf(body: Reply['body'], text: string): string {
  const error = body?.error;
  if (typeof error === 'string') return error;
  return (error === undefined ? text : JSON.stringify(error)).slice(0, 200);
}
