/**
 * The analytics integration: a purchase event per cleared order. The real adapter speaks the GA4
 * Measurement Protocol (`POST <endpoint>?measurement_id=..&api_secret=..` with a `purchase`
 * event; GA4 drops a repeated `transaction_id`, so a retried send does not count twice).
 */
export interface PurchaseEvent {
  transactionId: string;
  clientId: string;
  currency: string;
  value: string;
  items: { item_id: string; item_name: string; price: string; quantity: number }[];
}

export interface AnalyticsClient {
  purchase(event: PurchaseEvent): Promise<void>;
}

export interface AnalyticsSettings {
  /** `ANALYTICS_ENDPOINT`, e.g. https://www.google-analytics.com/mp/collect */
  endpoint: string;
  measurementId: string;
  apiSecret: string;
  timeoutMs?: number;
}

export function measurementProtocolClient({ endpoint, measurementId, apiSecret, timeoutMs = 10_000 }: AnalyticsSettings): AnalyticsClient {
  return {
    async purchase(event) {
      const url = new URL(endpoint);
      url.searchParams.set('measurement_id', measurementId);
      url.searchParams.set('api_secret', apiSecret);
      const body = {
        client_id: event.clientId,
        events: [
          {
            name: 'purchase',
            params: { transaction_id: event.transactionId, currency: event.currency, value: Number(event.value), items: event.items.map((i) => ({ ...i, price: Number(i.price) })) },
          },
        ],
      };
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`analytics answered HTTP ${response.status}`);
    },
  };
}
