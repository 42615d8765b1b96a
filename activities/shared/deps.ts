import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.ts';
import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import type { WebhookSettings } from '../webhooks/settings.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import type { IntegrationEndpoints } from '../../adapters/endpoints.ts';
import { READ_EACH_TIME, type OrderReads } from '../../db/repositories/shop/step-reads.ts';
import { recordEffect, type RecordEffect } from '../../db/repositories/shop/order-effects.ts';

/** What activities need from the outside world; the worker builds it once, tests pass their own. */
export interface ActivityDeps {
  orm: Orm;
  /** Participant-facing app URL; `{subdomain}` is replaced by the platform's subdomain. */
  platformUrlTemplate: string;
  now?: () => Date;
  /** `SECRETS_KEY` (32 bytes): opens sealed secrets; the development key when unset (secretsKeyFrom). */
  secretsKey?: Buffer;
  /** Webhook delivery (`WEBHOOK_*`); the defaults (no allowlist, the three-day schedule, 10 s) when unset. */
  webhooks?: WebhookSettings;
  /** Provider endpoints and the platform's SMTP relay; nothing configured (mail recorded only) when unset. */
  mailEndpoints?: MailEndpoints;
  /** Where the shops' Stripe, GA4 and Mailchimp are reached (`STRIPE_API_URL`, `GA4_MP_URL`, `MAILCHIMP_API_URL`); their real addresses when unset. */
  integrationEndpoints?: IntegrationEndpoints;
  /** `PUBLIC_URL` (config.ts publicUrlOf): the base of every link in a mail (downloads, invoices); DEFAULT_PUBLIC_URL when unset. */
  publicUrl?: string;
}

/**
 * Where a group of shop activities does its database work, an explicit parameter of the group:
 * by default each activity its own unit of work (`unitsOfWork`); the clearing's one step passes
 * its transaction (activities/shop/clearing-transaction.ts).
 */
export interface ActivityDb {
  /** An entity manager scoped to the shop for one unit of work (a fresh fork, or one in the step's transaction). */
  shopEm(shopId: string): EntityManager;
  /** How the order effects read an order: each time, or once per step in the clearing (`readsOnce`). */
  reads: OrderReads;
  /** How the order effects record their outcome: at once, or kept for one multi-row write at the end of the clearing's step (`effectLogBatch`). */
  recordEffect: RecordEffect;
}

/** Each activity its own unit of work: a fresh entity manager of the Orm per call, reads each time, outcomes recorded at once. */
export function unitsOfWork(orm: Orm): ActivityDb {
  return { shopEm: (shopId) => shopEm(orm, shopId), reads: READ_EACH_TIME, recordEffect };
}
