import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { endpoint, providerRequest, requireAccepted, stringField } from './http.ts';
import { endpointMissing, type MailTransport, type OutboundMessage, type SendResult } from './transport.ts';

/**
 * provider_c: an HTTP JSON API (`PROVIDER_C_API_URL`) authenticated with two keys:
 * `X-Application-Key: <application_key>` names the application, `Authorization: Bearer
 * <authorization_key>` authorises it to send.
 *
 * - `POST {base}/messages` with `{sender: {address, name}, recipients: [address], reply_to?,
 *   subject, html, text, message_id}` and `Idempotency-Key: <mail id>`; 2xx `{id}` when accepted.
 *
 * There is no verification call: the spec asks none for provider_c, so bad keys show as failed
 * deliveries in the mail log.
 */
export interface ProviderCCredentials {
  application_key: string;
  authorization_key: string;
}

const NAME = 'provider_c';

export function providerCTransport(endpoints: MailEndpoints, credentials: ProviderCCredentials): MailTransport {
  return {
    name: NAME,
    async send(message: OutboundMessage): Promise<SendResult> {
      if (!endpoints.providerCApiUrl) throw endpointMissing('PROVIDER_C_API_URL');
      const reply = await providerRequest(NAME, endpoint(endpoints.providerCApiUrl, 'messages'), {
        method: 'POST',
        headers: {
          'x-application-key': credentials.application_key,
          authorization: `Bearer ${credentials.authorization_key}`,
          'idempotency-key': message.id,
        },
        body: {
          sender: { address: message.from.address, name: message.from.name },
          recipients: [message.to],
          ...(message.replyTo ? { reply_to: message.replyTo } : {}),
          subject: message.subject,
          html: message.html,
          text: message.text,
          message_id: message.messageId,
        },
        timeoutMs: endpoints.timeoutMs,
      });
      return { providerMessageId: stringField(requireAccepted(NAME, reply).body, 'id') };
    },
  };
}
