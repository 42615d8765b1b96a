import { MailTransportError } from './transport.ts';

/** Statuses that say the request itself is wrong: sending it again cannot succeed. */
const PERMANENT = new Set([400, 404, 405, 413, 415, 422]);

export interface ProviderReply {
  status: number;
  body: Record<string, unknown>;
}

/** The endpoint `path` under an API base URL (`https://host/v1` + `send` = `https://host/v1/send`). */
export function endpoint(base: string, path: string): URL {
  return new URL(path, base.endsWith('/') ? base : `${base}/`);
}

/**
 * One request to a provider's HTTP API, with a time limit; redirects are not followed. A network
 * error, a timeout, 408, 429 and 5xx are retryable failures; the statuses in PERMANENT are not.
 * Other non-2xx statuses (401, 403) are returned for the caller to judge.
 */
export async function providerRequest(
  provider: string,
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown; timeoutMs: number },
): Promise<ProviderReply> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (cause) {
    throw new MailTransportError(`${provider} could not be reached: ${(cause as Error).message}`, { retryable: true, cause });
  }
  const text = await response.text().catch(() => '');
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // A non-JSON body is only informative.
  }
  if (response.ok || response.status === 401 || response.status === 403) return { status: response.status, body };
  const detail = typeof body.error === 'string' ? `: ${body.error.slice(0, 200)}` : '';
  throw new MailTransportError(`${provider} answered ${response.status}${detail}`, { retryable: !PERMANENT.has(response.status) });
}

/** A 401 or 403 while sending: the stored credentials no longer work (retried: they may be fixed meanwhile). */
export function requireAccepted(provider: string, reply: ProviderReply): ProviderReply {
  if (reply.status === 401 || reply.status === 403) {
    throw new MailTransportError(`${provider} refused the credentials (${reply.status})`, { retryable: true, credentialsRefused: true });
  }
  return reply;
}

export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 255) : undefined;
}
