import type { Orm } from '../../db/orm.ts';
import type { WebhookSettings } from '../webhooks/settings.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import type { IntegrationEndpoints } from '../../adapters/endpoints.ts';
import type { OrderReads } from '../../db/repositories/shop/step-reads.ts';
import type { RecordEffect } from '../../db/repositories/shop/order-effects.ts';

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
  /** How the order effects read an order: once per step in the clearing's one step (`readsOnce`); each time when unset. */
  reads?: OrderReads;
  /** How the order effects record their outcome: kept for one multi-row write at the end of the clearing's step (`effectLogBatch`); at once when unset. */
  recordEffect?: RecordEffect;
}
