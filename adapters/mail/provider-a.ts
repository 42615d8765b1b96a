import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { endpoint, providerRequest, requireAccepted, stringField } from './http.ts';
import { endpointMissing, type MailTransport, type OutboundMessage, type SendResult } from './transport.ts';

/**
 * provider_a: an HTTP JSON API (`PROVIDER_A_API_URL`) authenticated with HTTP Basic
 * `app_key:secret_key`.
 *
 * - `GET  {base}/account`: 200 when the key pair is valid, 401/403 when not (the check on save).
 * - `POST {base}/send` with `{from: {email, name}, to: [{email}], reply_to?: {email}, subject,
 *   html_part, text_part, custom_id, headers: {"Message-ID"}}` and `Idempotency-Key: <mail id>`;
 *   2xx `{message_id}` when accepted. The same key twice is accepted once.
 */
export interface ProviderACredentials {
  app_key: string;
  secret_key: string;
}

const NAME = 'provider_a';

function base(endpoints: MailEndpoints): string {
  if (!endpoints.providerAApiUrl) throw endpointMissing('PROVIDER_A_API_URL');
  return endpoints.providerAApiUrl;
}

const authorization = ({ app_key, secret_key }: ProviderACredentials) => `Basic ${Buffer.from(`${app_key}:${secret_key}`).toString('base64')}`;

/** Whether provider_a accepts the key pair: `{ok: false, reason}` when it refuses it. Unreachable: throws. */
export async function verifyProviderA(endpoints: MailEndpoints, credentials: ProviderACredentials): Promise<{ ok: true } | { ok: false; reason: string }> {
  const reply = await providerRequest(NAME, endpoint(base(endpoints), 'account'), {
    method: 'GET',
    headers: { authorization: authorization(credentials) },
    timeoutMs: endpoints.timeoutMs,
  });
  if (reply.status === 401 || reply.status === 403) return { ok: false, reason: `provider_a refused these credentials (${reply.status})` };
  return { ok: true };
}

export function providerATransport(endpoints: MailEndpoints, credentials: ProviderACredentials): MailTransport {
  return {
    name: NAME,
    async send(message: OutboundMessage): Promise<SendResult> {
      const reply = await providerRequest(NAME, endpoint(base(endpoints), 'send'), {
        method: 'POST',
        headers: { authorization: authorization(credentials), 'idempotency-key': message.id },
        body: {
          from: { email: message.from.address, name: message.from.name },
          to: [{ email: message.to }],
          ...(message.replyTo ? { reply_to: { email: message.replyTo } } : {}),
          subject: message.subject,
          html_part: message.html,
          text_part: message.text,
          custom_id: message.id,
          headers: { 'Message-ID': message.messageId },
        },
        timeoutMs: endpoints.timeoutMs,
      });
      return { providerMessageId: stringField(requireAccepted(NAME, reply).body, 'message_id') };
    },
  };
}
