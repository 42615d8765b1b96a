import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { smtpSend } from './smtp.ts';
import { endpointMissing, type MailTransport, type OutboundMessage } from './transport.ts';

/**
 * provider_b: SMTP with `smtp_username` / `smtp_password` (AUTH PLAIN or LOGIN), on the host of the
 * provider's region: `PROVIDER_B_SMTP_HOST` with `{region}` replaced (`email-smtp.{region}...`),
 * port `PROVIDER_B_SMTP_PORT`, STARTTLS required unless `PROVIDER_B_SMTP_TLS` says otherwise.
 * The provider accepts mail to its simulator address (`PROVIDER_B_SIMULATOR_ADDRESS`) and drops
 * it: saving the provider sends a test mail there, so bad credentials or a wrong region are found
 * before any participant's mail depends on them.
 */
export interface ProviderBCredentials {
  smtp_username: string;
  smtp_password: string;
}

export function providerBHost(endpoints: MailEndpoints, region: string): string {
  if (!endpoints.providerBSmtpHost) throw endpointMissing('PROVIDER_B_SMTP_HOST');
  return endpoints.providerBSmtpHost.replaceAll('{region}', region);
}

export function providerBTransport(endpoints: MailEndpoints, region: string, credentials: ProviderBCredentials): MailTransport {
  return {
    name: 'provider_b',
    send: (message: OutboundMessage) =>
      smtpSend(
        'provider_b',
        {
          host: providerBHost(endpoints, region),
          port: endpoints.providerBSmtpPort,
          tls: endpoints.providerBSmtpTls,
          auth: { user: credentials.smtp_username, pass: credentials.smtp_password },
        },
        message,
        endpoints.timeoutMs,
      ),
  };
}
