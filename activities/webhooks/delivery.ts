import type { EntityManager } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import type { DomainEventType } from '../../domain/shared/events.ts';
import { parseCidrList, type Cidr } from '../../domain/shared/ip-ranges.ts';
import {
  DEFAULT_RETRY_SCHEDULE,
  nextAttemptDelayMs,
  parseRetryAfter,
  parseRetrySchedule,
  webhookEnvelope,
  type WebhookDeliveryStatus,
} from '../../domain/shared/webhooks.ts';
import { openSecret, secretsKeyFrom } from '../../db/secret-box.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { signatureHeaders } from './signing.ts';
import { pinnedHttpTransport, resolveTarget, systemResolver, type Resolver, type WebhookTransport } from './transport.ts';

/** Delivery settings, from `WEBHOOK_*` (domain/config.ts); tests pass short schedules and fakes. */
export interface WebhookSettings {
  /** `WEBHOOK_PRIVATE_ALLOWLIST`: private ranges that may still be reached (local receivers in tests). */
  allowlist: Cidr[];
  /** Waits before the 2nd, 3rd, ... attempt, in ms (`WEBHOOK_RETRY_SCHEDULE`). */
  retrySchedule: number[];
  /** `WEBHOOK_TIMEOUT_MS`: a 2xx must arrive within this. */
  timeoutMs: number;
  transport?: WebhookTransport;
  resolve?: Resolver;
  /** Source of the retry jitter, in [0, 1). */
  random?: () => number;
}

export function webhookSettingsFrom(env: { WEBHOOK_PRIVATE_ALLOWLIST?: string; WEBHOOK_RETRY_SCHEDULE?: string; WEBHOOK_TIMEOUT_MS?: number }): WebhookSettings {
  return {
    allowlist: parseCidrList(env.WEBHOOK_PRIVATE_ALLOWLIST),
    retrySchedule: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE),
    timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 10_000,
  };
}

export interface WebhookTarget {
  webhookId: string;
  events: DomainEventType[];
}

export interface DeliveryRef {
  platformId: string;
  deliveryId: string;
}

export interface AttemptResult {
  status: WebhookDeliveryStatus;
  /** The HTTP status of this attempt, null when nothing was answered (or nothing sent). */
  statusCode: number | null;
  /** Wait before the next attempt; null when the delivery is over. */
  nextAttemptInMs: number | null;
}

interface DeliveryRow {
  status: WebhookDeliveryStatus;
  next_attempt_at: string | Date | null;
  url: string;
  active: boolean;
  deleted_at: string | Date | null;
  secret_sealed: string;
  webhook_id: string;
  event_id: string;
  type: DomainEventType;
  payload: Record<string, unknown>;
  occurred_at: string | Date;
}

/** The current activity's context, or null outside an activity (a test calling the function). */
function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/**
 * An attempt claims its delivery before sending (a lease in `next_attempt_at`), so a retry started
 * while an earlier attempt still runs (heartbeat timeout, network partition) does not POST too. The
 * holder renews the lease while it works; a killed worker's lease runs out within `CLAIM_LEASE_MS`.
 */
const CLAIM_LEASE_MS = 10_000;
const CLAIM_RENEW_MS = 2_000;
/** The wait before trying again when another attempt holds the claim. */
const CLAIM_RETRY_MIN_MS = 1_000;

const describeError = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : (e.message ?? String(error));
};

export function webhookActivities({ orm, secretsKey, webhooks, now = () => new Date() }: ActivityDeps) {
  const settings = webhooks ?? webhookSettingsFrom({});
  const key = secretsKey ?? secretsKeyFrom(undefined, () => undefined);
  const transport = settings.transport ?? pinnedHttpTransport;
  const resolver = settings.resolve ?? systemResolver;
  const random = settings.random ?? Math.random;

  async function record(tx: EntityManager, ref: DeliveryRef, attempt: { at: Date; statusCode: number | null; durationMs: number; error: string | null; manual: boolean }, delivery: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null }) {
    await tx.execute(
      `insert into webhook_delivery_attempts (id, platform_id, delivery_id, attempted_at, status_code, duration_ms, error, manual)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?)`,
      [ref.platformId, ref.deliveryId, attempt.at, attempt.statusCode, attempt.durationMs, attempt.error, attempt.manual],
    );
    await tx.execute(
      'update webhook_deliveries set status = ?, next_attempt_at = ?, attempt_count = attempt_count + 1, updated_at = now() where id = ? and platform_id = ?',
      [delivery.status, delivery.nextAttemptAt, ref.deliveryId, ref.platformId],
    );
  }

  return {
    /** The platform's active webhooks subscribed to at least one of these event types. */
    async webhookTargets({ platformId, types }: { platformId: string; types: DomainEventType[] }): Promise<WebhookTarget[]> {
      if (types.length === 0) return [];
      const rows: { id: string; events: DomainEventType[] }[] = await orm.em.fork().getConnection().execute(
        `select id, events from webhooks
          where platform_id = ? and active and deleted_at is null and events && ?::text[]
          order by created_at, id`,
        [platformId, `{${types.join(',')}}`],
      );
      return rows.map((r) => ({ webhookId: r.id, events: r.events }));
    },

    /** The delivery row of an (event, webhook) pair, made once; a repeated call finds it. */
    async openWebhookDelivery({ platformId, webhookId, eventId }: { platformId: string; webhookId: string; eventId: string }): Promise<{ deliveryId: string }> {
      const connection = orm.em.fork().getConnection();
      await connection.execute(
        `insert into webhook_deliveries (id, platform_id, webhook_id, event_id, event_type, status, attempt_count, redeliveries, created_at, updated_at)
         select gen_random_uuid(), e.platform_id, ?, e.id, e.type, 'pending', 0, 0, clock_timestamp(), clock_timestamp()
           from domain_events e where e.id = ? and e.platform_id = ?
         on conflict (webhook_id, event_id) do nothing`,
        [webhookId, eventId, platformId],
      );
      const rows: { id: string }[] = await connection.execute('select id from webhook_deliveries where webhook_id = ? and event_id = ? and platform_id = ?', [webhookId, eventId, platformId]);
      if (!rows[0]) throw new Error(`event ${eventId} of platform ${platformId} not found`);
      return { deliveryId: rows[0].id };
    },

    /**
     * One attempt: refuse private targets (recorded, `failed`, nothing sent), else sign and POST
     * to the checked address, record the attempt and say when to try again. A retry of this
     * activity after its attempt was recorded answers from the record instead of sending again.
     * A manual redelivery is one attempt, without retries.
     */
    async attemptWebhookDelivery(input: DeliveryRef & { manual?: boolean }): Promise<AttemptResult> {
      // Heartbeat from the start, so no part of the attempt (queries, DNS, the request) outlives the
      // heartbeat timeout unnoticed; a cancelled or timed-out attempt aborts its request.
      const context = activityContext();
      context?.heartbeat();
      const heartbeat = context ? setInterval(() => context.heartbeat(), 1000) : undefined;
      const abort = new AbortController();
      const onCancel = () => abort.abort(context?.cancellationSignal.reason);
      context?.cancellationSignal.addEventListener('abort', onCancel, { once: true });
      const lease: { renew?: NodeJS.Timeout } = {};
      try {
        return await attemptOnce(input, abort, lease);
      } finally {
        clearInterval(heartbeat);
        clearInterval(lease.renew);
        context?.cancellationSignal.removeEventListener('abort', onCancel);
      }
    },
  };

  async function attemptOnce({ platformId, deliveryId, manual = false }: DeliveryRef & { manual?: boolean }, abort: AbortController, lease: { renew?: NodeJS.Timeout }): Promise<AttemptResult> {
    const ref = { platformId, deliveryId };
    const em = orm.em.fork();
    const rows: DeliveryRow[] = await em.getConnection().execute(
      `select d.status, d.next_attempt_at, w.id as webhook_id, w.url, w.active, w.deleted_at, w.secret_sealed,
              e.id as event_id, e.type, e.payload, e.occurred_at
         from webhook_deliveries d
         join webhooks w on w.id = d.webhook_id
         join domain_events e on e.id = d.event_id
        where d.id = ? and d.platform_id = ?`,
      [deliveryId, platformId],
    );
    const row = rows[0];
    if (!row) throw new Error(`webhook delivery ${deliveryId} not found`);
    const started = now();
    if (row.status !== 'pending') return { status: row.status, statusCode: null, nextAttemptInMs: null };
    const scheduledAt = row.next_attempt_at === null ? null : new Date(row.next_attempt_at).getTime();
    if (!manual && scheduledAt !== null && scheduledAt > started.getTime()) {
      return { status: 'pending', statusCode: null, nextAttemptInMs: scheduledAt - started.getTime() };
    }
    if (!row.active || row.deleted_at) {
      await em.getConnection().execute("update webhook_deliveries set status = 'disabled', next_attempt_at = null, updated_at = now() where id = ?", [deliveryId]);
      return { status: 'disabled', statusCode: null, nextAttemptInMs: null };
    }

    // Claim the attempt: only one attempt at a time may send (see CLAIM_LEASE_MS).
    let claimedUntil = new Date(started.getTime() + CLAIM_LEASE_MS);
    const claimed: unknown[] = await em.getConnection().execute(
      `update webhook_deliveries set next_attempt_at = ?, updated_at = now()
        where id = ? and platform_id = ? and status = 'pending' and (next_attempt_at is null or next_attempt_at <= ?)
        returning id`,
      [claimedUntil, deliveryId, platformId, started],
    );
    if (claimed.length === 0) {
      return { status: 'pending', statusCode: null, nextAttemptInMs: Math.max(CLAIM_RETRY_MIN_MS, (scheduledAt ?? 0) - started.getTime()) };
    }
    lease.renew = setInterval(() => {
      const until = new Date(now().getTime() + CLAIM_LEASE_MS);
      em.getConnection().execute(
        "update webhook_deliveries set next_attempt_at = ? where id = ? and status = 'pending' and next_attempt_at = ? returning id",
        [until, deliveryId, claimedUntil],
      ).then(
        (rows: unknown[]) => {
          if (rows.length > 0) claimedUntil = until;
          else abort.abort(new Error('the claim on the delivery was lost'));
        },
        (error: unknown) => abort.abort(error),
      );
    }, CLAIM_RENEW_MS);

    const finish = async (outcome: { statusCode: number | null; error: string | null; status: WebhookDeliveryStatus; nextAttemptInMs: number | null }) => {
      const durationMs = Math.max(0, now().getTime() - started.getTime());
      const nextAttemptAt = outcome.nextAttemptInMs === null ? null : new Date(now().getTime() + outcome.nextAttemptInMs);
      await em.transactional(async (tx) => {
        await record(tx, ref, { at: started, statusCode: outcome.statusCode, durationMs, error: outcome.error, manual }, { status: outcome.status, nextAttemptAt });
        if (outcome.statusCode === 410) await tx.execute('update webhooks set active = false, updated_at = now() where id = ?', [row.webhook_id]);
      });
      return { status: outcome.status, statusCode: outcome.statusCode, nextAttemptInMs: outcome.nextAttemptInMs };
    };
    const retryOrFail = async (statusCode: number | null, error: string, retryAfterMs: number | null) => {
      if (manual) return finish({ statusCode, error, status: 'failed', nextAttemptInMs: null });
      const attemptsMade = (await em.getConnection().execute<{ n: string }[]>('select count(*) as n from webhook_delivery_attempts where delivery_id = ? and not manual', [deliveryId]))[0]!;
      const delay = nextAttemptDelayMs({ schedule: settings.retrySchedule, attemptsMade: Number(attemptsMade.n) + 1, retryAfterMs, random: random() });
      return finish({ statusCode, error: delay === null ? `${error}; no attempts left` : error, status: delay === null ? 'failed' : 'pending', nextAttemptInMs: delay });
    };

    const url = new URL(row.url);
    const target = await resolveTarget(url, settings.allowlist, resolver, settings.timeoutMs);
    if (!target.ok) {
      if (target.retryable) return retryOrFail(null, target.reason, null);
      return finish({ statusCode: null, error: target.reason, status: 'failed', nextAttemptInMs: null });
    }

    const body = JSON.stringify(webhookEnvelope({ id: row.event_id, type: row.type, payload: row.payload, occurredAt: new Date(row.occurred_at).toISOString() }));
    let secret: string;
    try {
      secret = openSecret(row.secret_sealed, key);
    } catch {
      return finish({ statusCode: null, error: 'secret_key cannot be opened with this SECRETS_KEY; save the webhook again', status: 'failed', nextAttemptInMs: null });
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'coursehub-webhooks/1',
      ...signatureHeaders(secret, { eventId: row.event_id, timestamp: Math.floor(started.getTime() / 1000), body }),
    };
    let response;
    try {
      response = await transport({ url, address: target.address, family: target.family, headers, body, timeoutMs: settings.timeoutMs, signal: abort.signal });
    } catch (error) {
      // A cancelled attempt (or one that lost its claim) records nothing: its successor does.
      if (abort.signal.aborted) throw error;
      return retryOrFail(null, describeError(error), null);
    }
    const { statusCode } = response;
    if (statusCode >= 200 && statusCode < 300) return finish({ statusCode, error: null, status: 'succeeded', nextAttemptInMs: null });
    if (statusCode === 410) return finish({ statusCode, error: 'HTTP 410 Gone: the webhook was disabled', status: 'failed', nextAttemptInMs: null });
    const retryAfterHeader = response.headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader, now());
    const detail = statusCode >= 300 && statusCode < 400
      ? `HTTP ${statusCode}: redirects are not followed${response.headers.location ? ` (Location: ${String(response.headers.location).slice(0, 500)})` : ''}`
      : `HTTP ${statusCode}${response.bodyStart ? `: ${response.bodyStart.slice(0, 500)}` : ''}`;
    return retryOrFail(statusCode, detail, retryAfterMs);
  }
}
