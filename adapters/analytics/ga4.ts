/**
 * GA4 Measurement Protocol: `POST <collect>?measurement_id=..&api_secret=..` with a `purchase`
 * event (https://developers.google.com/analytics/devguides/collection/protocol/ga4). GA4 drops a
 * repeated `transaction_id`, so a retried send does not count twice. The collect address is
 * Google's unless `GA4_MP_URL` names a local receiver.
 */
import { httpFailure } from '../integration-error.ts';

export const GA4_COLLECT_URL = 'https://www.google-analytics.com/mp/collect';

export interface PurchaseEvent {
  transactionId: string;
  /** The GA4 client id: the buyer's own (`_ga`) when the order has it, else one per order; never derived from the order's uuid (the secret cart key). */
  clientId: string;
  currency: string;
  value: string;
  items: { item_id: string; item_name: string; price: string; quantity: number }[];
}

export interface AnalyticsClient {
  purchase(event: PurchaseEvent): Promise<void>;
}

export interface Ga4Settings {
  measurementId: string;
  apiSecret: string;
  /** `GA4_MP_URL`; Google's collect address when unset. */
  endpoint?: string;
  timeoutMs?: number;
}

export function ga4Client({ endpoint = GA4_COLLECT_URL, measurementId, apiSecret, timeoutMs = 10_000 }: Ga4Settings): AnalyticsClient {
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
      // The error names the status only: the address carries the api_secret.
      if (!response.ok) throw httpFailure(response.status, `GA4 Measurement Protocol answered HTTP ${response.status}`);
    },
  };
}
