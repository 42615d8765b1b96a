/**
 * The marketing integration: tags on the buyer's contact in a marketing tool's HTTP API
 * (`POST <MARKETING_API_URL>/contacts/tags` with `{email, tags}` and a bearer token). Adding a tag
 * twice is harmless, so a retried call does no damage.
 */
export interface MarketingClient {
  tagContact(email: string, tags: string[]): Promise<void>;
}

export interface MarketingSettings {
  url: string;
  token: string;
  timeoutMs?: number;
}

export function httpMarketingClient({ url, token, timeoutMs = 10_000 }: MarketingSettings): MarketingClient {
  return {
    async tagContact(email, tags) {
      const response = await fetch(new URL('contacts/tags', url.endsWith('/') ? url : `${url}/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ email, tags }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`marketing tool answered HTTP ${response.status}`);
    },
  };
}
