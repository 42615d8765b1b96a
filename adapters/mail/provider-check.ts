import { htmlToText, messageIdFor, PROVIDER_SHAPES, type MailProviderName } from '../../domain/shared/mail-delivery.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { providerACredentials, providerTransport } from './index.ts';
import { verifyProviderA } from './provider-a.ts';
import { MailTransportError, type OutboundMessage } from './transport.ts';

export interface CheckedSettings {
  provider: MailProviderName;
  fields: Record<string, string | null>;
  secrets: Record<string, string>;
}

export interface TestMail {
  message: OutboundMessage;
  providerMessageId: string | null;
}

export type CheckResult = { ok: true; testMail?: TestMail } | { ok: false; errors: Record<string, string[]> };

/** The failure of a check as field errors: refused credentials name the secrets, anything else the connection fields. */
function refused(provider: MailProviderName, error: MailTransportError, connectionFields: readonly string[]): CheckResult {
  const fields = error.credentialsRefused ? PROVIDER_SHAPES[provider].secrets : connectionFields;
  const message = error.credentialsRefused ? `refused by ${provider}: ${error.message}` : `could not be checked with ${provider}: ${error.message}`;
  return { ok: false, errors: Object.fromEntries(fields.map((f) => [f, [message]])) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function providerBTestMail(settings: CheckedSettings, endpoints: MailEndpoints, mailId: string, platformTitle: string): OutboundMessage {
  const from = settings.fields.email ?? endpoints.defaultFrom;
  const html =
    `<p>This message checks the provider_b settings of ${escapeHtml(platformTitle)}.</p>` +
    `<p>It goes to the provider's simulator address, which accepts it and delivers it nowhere.</p>`;
  return {
    id: mailId,
    messageId: messageIdFor(mailId, from),
    from: { address: from, name: settings.fields.display_name ?? platformTitle },
    replyTo: null,
    to: endpoints.providerBSimulatorAddress,
    subject: `provider_b settings test: ${platformTitle}`.slice(0, 255),
    html,
    text: htmlToText(html),
  };
}

/**
 * The check made when a provider's credentials are saved (spec: Mail delivery providers):
 * provider_a verifies the key pair with the provider; provider_b sends a test mail to its
 * simulator address; provider_c has no check. Any failure (refused, unreachable, endpoint not
 * configured) is reported as field errors, and the caller saves nothing.
 */
export async function checkProvider(settings: CheckedSettings, endpoints: MailEndpoints, testMail: { mailId: string; platformTitle: string }): Promise<CheckResult> {
  try {
    switch (settings.provider) {
      case 'provider_a': {
        const verified = await verifyProviderA(endpoints, providerACredentials(settings));
        if (!verified.ok) return { ok: false, errors: { app_key: [verified.reason], secret_key: [verified.reason] } };
        return { ok: true };
      }
      case 'provider_b': {
        const message = providerBTestMail(settings, endpoints, testMail.mailId, testMail.platformTitle);
        const transport = providerTransport(settings, endpoints);
        const sent = await transport.send(message);
        return { ok: true, testMail: { message, providerMessageId: sent.providerMessageId ?? null } };
      }
      case 'provider_c':
        return { ok: true };
    }
  } catch (error) {
    if (!(error instanceof MailTransportError)) throw error;
    return refused(settings.provider, error, settings.provider === 'provider_b' ? ['region'] : ['app_key', 'secret_key']);
  }
}
