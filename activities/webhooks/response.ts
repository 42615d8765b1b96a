import { parseRetryAfter } from '../../domain/shared/webhooks.ts';
import type { TransportResponse } from './transport.ts';

/** What the receiver's answer means for the delivery. */
export type ResponseVerdict =
  | { kind: 'succeeded'; statusCode: number }
  /** 410 Gone: the delivery fails and the webhook is switched off. */
  | { kind: 'gone'; statusCode: number; error: string }
  /** Anything else: try again on the schedule, or after the receiver's `Retry-After`. */
  | { kind: 'retry'; statusCode: number; error: string; retryAfterMs: number | null };

export function judgeResponse(response: TransportResponse, now: Date): ResponseVerdict {
  const { statusCode } = response;
  if (statusCode >= 200 && statusCode < 300) return { kind: 'succeeded', statusCode };
  if (statusCode === 410) return { kind: 'gone', statusCode, error: 'HTTP 410 Gone: the webhook was disabled' };
  const retryAfterHeader = response.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader, now);
  const error = statusCode >= 300 && statusCode < 400
    ? `HTTP ${statusCode}: redirects are not followed${response.headers.location ? ` (Location: ${String(response.headers.location).slice(0, 500)})` : ''}`
    : `HTTP ${statusCode}${response.bodyStart ? `: ${response.bodyStart.slice(0, 500)}` : ''}`;
  return { kind: 'retry', statusCode, error, retryAfterMs };
}

/** A transport error for the attempt's history: `ECONNREFUSED: connect ECONNREFUSED ...`. */
export function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : (e.message ?? String(error));
}
