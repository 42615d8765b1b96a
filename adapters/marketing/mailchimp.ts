/**
 * Mailchimp Marketing API, member tags: `POST {base}/lists/{list_id}/members/{subscriber_hash}/tags`
 * with `{tags: [{name, status: 'active'}]}`, where the hash is the MD5 of the lower-case e-mail,
 * HTTP basic auth with the API key, and the base `https://<dc>.api.mailchimp.com/3.0` from the
 * key's `-<dc>` suffix (https://mailchimp.com/developer/marketing/api/list-member-tags/).
 * Activating a tag twice is harmless, so a retried call does no damage. A buyer not yet in the
 * audience is added first (`PUT .../members/{hash}` with `status_if_new: transactional`).
 */
import { createHash } from 'node:crypto';
import { httpFailure, IntegrationRefused } from '../integration-error.ts';

export interface MarketingClient {
  tagContact(email: string, tags: string[]): Promise<void>;
}

export interface MailchimpSettings {
  apiKey: string;
  listId: string;
  /** `MAILCHIMP_API_URL` (a local stand-in); from the key's data-center suffix when unset. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** `https://us21.api.mailchimp.com/3.0` for a key ending in `-us21`; null for a key without a data center. */
export function mailchimpBaseUrl(apiKey: string): string | null {
  const dc = /-([a-z]+\d+)$/.exec(apiKey)?.[1];
  return dc ? `https://${dc}.api.mailchimp.com/3.0` : null;
}

export const subscriberHash = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

export function mailchimpClient({ apiKey, listId, baseUrl, timeoutMs = 10_000 }: MailchimpSettings): MarketingClient {
  const base = (baseUrl ?? mailchimpBaseUrl(apiKey))?.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`coursehub:${apiKey}`).toString('base64')}`;
  async function call(method: string, path: string, body: unknown): Promise<void> {
    if (!base) throw new IntegrationRefused('the Mailchimp API key has no data-center suffix (-usNN)');
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      const problem = (await response.json().catch(() => null)) as { title?: string; detail?: string } | null;
      throw httpFailure(response.status, `Mailchimp answered HTTP ${response.status}${problem?.title ? `: ${problem.title}` : ''}${problem?.detail ? ` (${problem.detail})` : ''}`);
    }
  }
  return {
    async tagContact(email, tags) {
      const member = `/lists/${encodeURIComponent(listId)}/members/${subscriberHash(email)}`;
      await call('PUT', member, { email_address: email, status_if_new: 'transactional' });
      await call('POST', `${member}/tags`, { tags: tags.map((name) => ({ name, status: 'active' })) });
    },
  };
}
