import { measurementProtocolClient, type AnalyticsClient, type AnalyticsSettings } from './analytics.ts';
import { httpMarketingClient, type MarketingClient, type MarketingSettings } from './marketing.ts';

/** The shop's outside tools; an integration left unconfigured makes its effect `skipped`. */
export interface ShopIntegrations {
  analytics: AnalyticsClient | null;
  marketing: MarketingClient | null;
}

export interface ShopIntegrationSettings {
  analytics?: AnalyticsSettings | null;
  marketing?: MarketingSettings | null;
}

export function shopIntegrations(settings: ShopIntegrationSettings = {}): ShopIntegrations {
  return {
    analytics: settings.analytics ? measurementProtocolClient(settings.analytics) : null,
    marketing: settings.marketing ? httpMarketingClient(settings.marketing) : null,
  };
}
