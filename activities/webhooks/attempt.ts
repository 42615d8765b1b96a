import type { EntityManager } from '@mikro-orm/postgresql';
import { openSecret } from '../../adapters/secrets/secret-box.ts';
import {
  automaticAttemptCount,
  claimDeliveryToAttempt,
  disableDelivery,
  recordAttempt,
  renewDeliveryClaim,
  type DeliveryToAttempt,
  type TenantDelivery,
  type WebhookTables,
} from '../../db/repositories/shared/webhook-deliveries.ts';
import { nextAttemptDelayMs, webhookEnvelope, type WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { keepLease } from '../shared/lease.ts';
import { webhookAttempts } from '../shared/metrics.ts';
import { describeError, judgeResponse } from './response.ts';
import type { WebhookSettings } from './settings.ts';
import { signatureHeaders } from './signing.ts';
import { resolveTarget, type Resolver, type WebhookTransport } from './transport.ts';

export interface AttemptResult {
  status: WebhookDeliveryStatus;
  /** The HTTP status of this attempt, null when nothing was answered (or nothing sent). */
  statusCode: number | null;
  /** Wait before the next attempt; null when the delivery is over. */
  nextAttemptInMs: number | null;
}

/** What one attempt works with, built once per worker by webhookActivities. */
export interface AttemptDeps {
  settings: WebhookSettings;
  key: Buffer;
  transport: WebhookTransport;
  resolver: Resolver;
  random: () => number;
  now: () => Date;
}

/** The claim's lease (see activities/shared/lease.ts): a killed worker's attempt is retried within it. */
const CLAIM_LEASE_MS = 10_000;
/** The wait before trying again when another attempt holds the claim. */
const CLAIM_RETRY_MIN_MS = 1_000;

/** An attempt that holds the claim: where to record it and when it started. */
interface Claimed {
  em: EntityManager;
  ref: TenantDelivery;
  row: DeliveryToAttempt;
  started: Date;
  manual: boolean;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  status: WebhookDeliveryStatus;
  nextAttemptInMs: number | null;
}

/**
 * One attempt: refuse private targets (recorded, `failed`, nothing sent), else sign and POST to
 * the checked address, record the attempt and say when to try again. A delivery no longer pending
 * answers from the record; one not due yet, or claimed by another attempt, sends nothing and says
 * when to look again. `abort` cancels the request (the activity was cancelled, or the claim lost).
 */
export async function attemptDelivery(deps: AttemptDeps, em: EntityManager, input: TenantDelivery & { manual?: boolean }, abort: AbortController): Promise<AttemptResult> {
  const { manual = false, ...ref } = input;
  const { deliveryId } = ref;
  const started = deps.now();
  // Only one attempt at a time may send: it claims the delivery for CLAIM_LEASE_MS (renewed while
  // sending) in the statement that reads it; a delivery over, not due or claimed is not claimed.
  let claimedUntil = new Date(started.getTime() + CLAIM_LEASE_MS);
  const row = await claimDeliveryToAttempt(em, ref, claimedUntil, started);
  if (!row) throw new Error(`webhook delivery ${deliveryId} not found`);
  if (row.status !== 'pending') return { status: row.status, statusCode: null, nextAttemptInMs: null };
  const scheduledAt = row.next_attempt_at === null ? null : new Date(row.next_attempt_at).getTime();
  if (!manual && scheduledAt !== null && scheduledAt > started.getTime()) {
    return { status: 'pending', statusCode: null, nextAttemptInMs: scheduledAt - started.getTime() };
  }
  if (!row.active || row.deleted_at) {
    await disableDelivery(em, ref);
    return { status: 'disabled', statusCode: null, nextAttemptInMs: null };
  }
  if (!row.claimed) {
    return { status: 'pending', statusCode: null, nextAttemptInMs: Math.max(CLAIM_RETRY_MIN_MS, (scheduledAt ?? 0) - started.getTime()) };
  }
  const lease = keepLease({
    renew: async () => {
      const until = new Date(deps.now().getTime() + CLAIM_LEASE_MS);
      const held = await renewDeliveryClaim(em, ref, claimedUntil, until);
      if (held) claimedUntil = until;
      return held;
    },
    onLost: (error) => abort.abort(error ?? new Error('the claim on the delivery was lost')),
  });
  try {
    return await send(deps, { em, ref, row, started, manual }, abort.signal);
  } finally {
    lease.stop();
  }
}

/** Resolve and check the target, sign, POST, and record what came of it. */
async function send(deps: AttemptDeps, claimed: Claimed, signal: AbortSignal): Promise<AttemptResult> {
  const { row, started } = claimed;
  const opened = openTarget(row, claimed.ref.tables, deps.key);
  if ('error' in opened) return finish(deps, claimed, { statusCode: null, error: opened.error, status: 'failed', nextAttemptInMs: null });
  const { url, secret } = opened;
  const target = await resolveTarget(url, deps.settings.allowlist, deps.resolver, deps.settings.timeoutMs);
  if (!target.ok) {
    if (target.retryable) return retryOrFail(deps, claimed, null, target.reason, null);
    return finish(deps, claimed, { statusCode: null, error: target.reason, status: 'failed', nextAttemptInMs: null });
  }

  const body = JSON.stringify(webhookEnvelope({ id: row.event_id, type: row.type, payload: row.payload, occurredAt: new Date(row.occurred_at).toISOString() }));
  const signed = { eventId: row.event_id, timestamp: Math.floor(started.getTime() / 1000), body };
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'coursehub-webhooks/1',
    ...(secret === null ? { 'webhook-id': signed.eventId, 'webhook-timestamp': String(signed.timestamp) } : signatureHeaders(secret, signed)),
  };
  let response;
  try {
    response = await deps.transport({ url, address: target.address, family: target.family, headers, body, timeoutMs: deps.settings.timeoutMs, signal });
  } catch (error) {
    // A cancelled attempt (or one that lost its claim) records nothing: its successor does.
    if (signal.aborted) throw error;
    return retryOrFail(deps, claimed, null, describeError(error), null);
  }
  const verdict = judgeResponse(response, deps.now());
  if (verdict.kind === 'succeeded') return finish(deps, claimed, { statusCode: verdict.statusCode, error: null, status: 'succeeded', nextAttemptInMs: null });
  if (verdict.kind === 'gone') return finish(deps, claimed, { statusCode: verdict.statusCode, error: verdict.error, status: 'failed', nextAttemptInMs: null });
  return retryOrFail(deps, claimed, verdict.statusCode, verdict.error, verdict.retryAfterMs);
}

/**
 * The target's address (opened when it is sealed: the club's carries a token) and signing secret
 * (null: the target sends unsigned), or why they cannot be opened with this key: nothing is sent.
 */
function openTarget(row: DeliveryToAttempt, tables: WebhookTables, key: Buffer): { url: URL; secret: string | null } | { error: string } {
  let url: URL;
  try {
    url = new URL(tables.target?.urlSealed ? openSecret(row.url, key) : row.url);
  } catch {
    return { error: 'the stored address cannot be opened with this SECRETS_KEY; save it again' };
  }
  try {
    return { url, secret: row.secret_sealed === null ? null : openSecret(row.secret_sealed, key) };
  } catch {
    return { error: 'secret_key cannot be opened with this SECRETS_KEY; save the webhook again' };
  }
}

/** A failed attempt: the next one on the schedule (or after `Retry-After`), or `failed` when none is left. A manual attempt is not retried. */
async function retryOrFail(deps: AttemptDeps, claimed: Claimed, statusCode: number | null, error: string, retryAfterMs: number | null): Promise<AttemptResult> {
  if (claimed.manual) return finish(deps, claimed, { statusCode, error, status: 'failed', nextAttemptInMs: null });
  const attemptsMade = await automaticAttemptCount(claimed.em, claimed.ref);
  const delay = nextAttemptDelayMs({ schedule: deps.settings.retrySchedule, attemptsMade: attemptsMade + 1, retryAfterMs, random: deps.random() });
  return finish(deps, claimed, { statusCode, error: delay === null ? `${error}; no attempts left` : error, status: delay === null ? 'failed' : 'pending', nextAttemptInMs: delay });
}

/** Records the attempt and the delivery's new state (one statement). */
async function finish(deps: AttemptDeps, { em, ref, row, started, manual }: Claimed, outcome: Outcome): Promise<AttemptResult> {
  const durationMs = Math.max(0, deps.now().getTime() - started.getTime());
  const nextAttemptAt = outcome.nextAttemptInMs === null ? null : new Date(deps.now().getTime() + outcome.nextAttemptInMs);
  await recordAttempt(
    em,
    { ...ref, webhookId: row.webhook_id },
    { at: started, statusCode: outcome.statusCode, durationMs, error: outcome.error, manual },
    { status: outcome.status, nextAttemptAt },
  );
  webhookAttempts.inc({ outcome: outcome.status === 'pending' ? 'retry' : outcome.status });
  return { status: outcome.status, statusCode: outcome.statusCode, nextAttemptInMs: outcome.nextAttemptInMs };
}
