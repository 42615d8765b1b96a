import { activeProvider } from '../../domain/mail-delivery.ts';
import type { MailEndpoints } from './endpoints.ts';
import { platformDefaultTransport } from './platform-default.ts';
import { providerATransport } from './provider-a.ts';
import { providerBTransport } from './provider-b.ts';
import { providerCTransport } from './provider-c.ts';
import type { ProviderSettings } from './provider-settings.ts';
import type { MailTransport } from './transport.ts';

export * from './endpoints.ts';
export * from './transport.ts';

/** The adapter for one provider's settings. */
export function providerTransport(settings: ProviderSettings, endpoints: MailEndpoints): MailTransport {
  const secret = (name: string) => settings.secrets[name] ?? '';
  switch (settings.provider) {
    case 'provider_a':
      return providerATransport(endpoints, { app_key: secret('app_key'), secret_key: secret('secret_key') });
    case 'provider_b':
      return providerBTransport(endpoints, settings.fields.region ?? '', { smtp_username: secret('smtp_username'), smtp_password: secret('smtp_password') });
    case 'provider_c':
      return providerCTransport(endpoints, { application_key: secret('application_key'), authorization_key: secret('authorization_key') });
  }
}

export interface ChosenTransport {
  transport: MailTransport;
  /** The provider's settings when a provider sends; null for the platform's default transport. */
  settings: ProviderSettings | null;
}

/** The first active provider in the order a, b, c (spec rule 3), else the platform's default transport. */
export function chooseTransport(saved: readonly ProviderSettings[], endpoints: MailEndpoints): ChosenTransport {
  const settings = activeProvider(saved);
  return settings ? { transport: providerTransport(settings, endpoints), settings } : { transport: platformDefaultTransport(endpoints), settings: null };
}
