import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import type { MailProviderName } from '../../domain/shared/mail-delivery.ts';
import { platformDefaultTransport } from './platform-default.ts';
import { providerATransport, type ProviderACredentials } from './provider-a.ts';
import { providerBTransport } from './provider-b.ts';
import { providerCTransport } from './provider-c.ts';
import type { MailTransport } from './transport.ts';

export * from '../../domain/shared/mail-endpoints.ts';
export * from './transport.ts';

/** One provider's settings with its secrets opened: only ever in memory, never in a reply or a log. */
export interface ProviderSettings {
  provider: MailProviderName;
  active: boolean;
  fields: Record<string, string | null>;
  secrets: Record<string, string>;
}

/** What a provider's adapter needs: its plain fields and its opened secrets. */
export type TransportSettings = Pick<ProviderSettings, 'provider' | 'fields' | 'secrets'>;

const secret = (settings: TransportSettings, name: string) => settings.secrets[name] ?? '';

export function providerACredentials(settings: TransportSettings): ProviderACredentials {
  return { app_key: secret(settings, 'app_key'), secret_key: secret(settings, 'secret_key') };
}

/** The adapter for one provider's settings. */
export function providerTransport(settings: TransportSettings, endpoints: MailEndpoints): MailTransport {
  switch (settings.provider) {
    case 'provider_a':
      return providerATransport(endpoints, providerACredentials(settings));
    case 'provider_b':
      return providerBTransport(endpoints, settings.fields.region ?? '', { smtp_username: secret(settings, 'smtp_username'), smtp_password: secret(settings, 'smtp_password') });
    case 'provider_c':
      return providerCTransport(endpoints, { application_key: secret(settings, 'application_key'), authorization_key: secret(settings, 'authorization_key') });
  }
}

export interface ChosenTransport {
  transport: MailTransport;
  /** The provider's settings when a provider sends; null for the platform's default transport. */
  settings: ProviderSettings | null;
}

/** The transport of the provider that sends (`activeProvider`, spec rule 3), or the platform's default transport when none does. */
export function chooseTransport(settings: ProviderSettings | null, endpoints: MailEndpoints): ChosenTransport {
  return settings ? { transport: providerTransport(settings, endpoints), settings } : { transport: platformDefaultTransport(endpoints), settings: null };
}
