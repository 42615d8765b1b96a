import { ga4Client, type AnalyticsClient } from '../../../adapters/analytics/ga4.ts';
import type { IntegrationEndpoints } from '../../../adapters/endpoints.ts';
import { mailchimpClient, type MarketingClient } from '../../../adapters/marketing/mailchimp.ts';
import { integrationSettings } from '../../../db/repositories/shop/integrations.ts';
import type { Sql } from '../../../db/repositories/shared/pooled-transaction.ts';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';

export interface ShopMarketing {
  client: MarketingClient;
  /** Tags every buyer gets. */
  tags: string[];
  /** Tags by product id. */
  productTags: Record<string, string[]>;
}

/** The shop's outside tools; an integration left unconfigured makes its effect `skipped`. */
export interface ShopIntegrations {
  analytics: AnalyticsClient | null;
  marketing: ShopMarketing | null;
}

/** The tools of the shop `shopId`, built from its own settings (never another shop's). */
export type IntegrationsFor = (sql: Sql, shopId: string) => Promise<ShopIntegrations>;

export function integrationsFromSettings(secretsKey: Buffer, endpoints: IntegrationEndpoints = {}): IntegrationsFor {
  return async (sql, shopId) => {
    const { analytics, marketing } = await integrationSettings(sql, shopId);
    return {
      analytics: analytics && ga4Client({ measurementId: analytics.measurementId, apiSecret: openSecret(analytics.apiSecretSealed, secretsKey), endpoint: endpoints.ga4Url }),
      marketing: marketing && {
        client: mailchimpClient({ apiKey: openSecret(marketing.apiKeySealed, secretsKey), listId: marketing.listId, baseUrl: endpoints.mailchimpApiUrl }),
        tags: marketing.tags,
        productTags: marketing.productTags,
      },
    };
  };
}
