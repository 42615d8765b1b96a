import type { Orm } from '../../db/orm.ts';
import type { WebhookSettings } from '../webhooks/settings.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import type { ShopIntegrations } from '../shop/integrations/index.ts';

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
  /** The shop's analytics and marketing tools (`ANALYTICS_*`, `MARKETING_*`); none configured when unset. */
  shopIntegrations?: ShopIntegrations;
  /** `SHOP_DOWNLOAD_BASE_URL`: the base of download links in shop mails (`{{LINKI_DO_POBRANIA}}`); relative links when unset. */
  shopDownloadBaseUrl?: string;
}
