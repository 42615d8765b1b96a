import type { DomainEventType } from '../../domain/shared/events.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import { openDelivery, platformDelivery, subscribedWebhooks, type DeliveryRef, type TenantDelivery } from '../../db/repositories/shared/webhook-deliveries.ts';
import type { Orm } from '../../db/orm.ts';
import { activityContext, heartbeatContext } from '../shared/activity-context.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { attemptDelivery, type AttemptDeps, type AttemptResult } from './attempt.ts';
import { webhookSettingsFrom } from './settings.ts';
import { pinnedHttpTransport, systemResolver } from './transport.ts';

export type { AttemptResult } from './attempt.ts';
export type { DeliveryRef } from '../../db/repositories/shared/webhook-deliveries.ts';

/** One event to one of the platform's webhooks: a delivery. */
interface WebhookPair {
  platformId: string;
  webhookId: string;
  eventId: string;
}

export interface WebhookTarget {
  webhookId: string;
  events: DomainEventType[];
}

/** What every attempt works with (settings, key, transport, resolver), from the worker's dependencies. */
export function attemptDepsFrom({ secretsKey, webhooks, now = () => new Date() }: ActivityDeps): AttemptDeps {
  const settings = webhooks ?? webhookSettingsFrom({});
  return {
    settings,
    key: secretsKey ?? secretsKeyFrom(undefined, () => undefined),
    transport: settings.transport ?? pinnedHttpTransport,
    resolver: settings.resolve ?? systemResolver,
    random: settings.random ?? Math.random,
    now,
  };
}

/**
 * One attempt as an activity, for a delivery of either tenant kind (activities/webhooks/attempt.ts).
 * It heartbeats from the start, so no part of the attempt (queries, DNS, the request) outlives the
 * heartbeat timeout unnoticed; a cancelled or timed-out attempt aborts its request.
 */
export async function attemptInActivity(deps: AttemptDeps, orm: Orm, delivery: TenantDelivery & { manual?: boolean }): Promise<AttemptResult> {
  const context = activityContext();
  const beating = heartbeatContext();
  beating?.heartbeat();
  const heartbeat = beating ? setInterval(() => beating.heartbeat(), 1000) : undefined;
  const abort = new AbortController();
  const onCancel = () => abort.abort(context?.cancellationSignal.reason);
  context?.cancellationSignal.addEventListener('abort', onCancel, { once: true });
  try {
    return await attemptDelivery(deps, orm.em.fork(), delivery, abort);
  } finally {
    clearInterval(heartbeat);
    context?.cancellationSignal.removeEventListener('abort', onCancel);
  }
}

/** The activities of webhook delivery (workflows/shared/webhook-delivery.ts): find the targets, open a delivery, attempt it. */
export function webhookActivities(activityDeps: ActivityDeps) {
  const { orm } = activityDeps;
  const deps = attemptDepsFrom(activityDeps);

  async function openPair({ platformId, webhookId, eventId }: WebhookPair): Promise<string> {
    const deliveryId = await openDelivery(orm.em.fork(), { platformId, webhookId, eventId });
    if (!deliveryId) throw new Error(`event ${eventId} of platform ${platformId} not found`);
    return deliveryId;
  }

  return {
    /** The platform's active webhooks subscribed to at least one of these event types. */
    async webhookTargets({ platformId, types }: { platformId: string; types: DomainEventType[] }): Promise<WebhookTarget[]> {
      if (types.length === 0) return [];
      const rows = await subscribedWebhooks(orm.em.fork(), platformId, types);
      return rows.map((r) => ({ webhookId: r.id, events: r.events }));
    },

    /** The delivery row of an (event, webhook) pair, made once; a repeated call finds it. */
    openWebhookDelivery: async (pair: WebhookPair): Promise<{ deliveryId: string }> => ({ deliveryId: await openPair(pair) }),

    /**
     * The delivery opened and its first attempt in one activity, made by the workflow that raised
     * the event (DESIGN.md section 4, "Deliveries"). A retry opens nothing new and answers a
     * recorded attempt from the record.
     */
    async openAndAttemptWebhookDelivery(pair: WebhookPair): Promise<AttemptResult & { deliveryId: string }> {
      heartbeatContext()?.heartbeat();
      const deliveryId = await openPair(pair);
      return { deliveryId, ...(await attemptInActivity(deps, orm, platformDelivery({ platformId: pair.platformId, deliveryId }))) };
    },

    /**
     * One attempt (activities/webhooks/attempt.ts). A retry of this activity after its attempt was
     * recorded answers from the record instead of sending again. A manual redelivery is one
     * attempt, without retries.
     */
    async attemptWebhookDelivery({ manual, ...ref }: DeliveryRef & { manual?: boolean }): Promise<AttemptResult> {
      return attemptInActivity(deps, orm, { ...platformDelivery(ref), manual });
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<WebhookActivities>(profile)` (workflows/shared/activities-of.ts). */
export type WebhookActivities = ReturnType<typeof webhookActivities>;
