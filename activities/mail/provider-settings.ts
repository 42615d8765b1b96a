import type { ActiveMailProvider } from '../../db/repositories/shared/mail-log.ts';
import { isMailProvider } from '../../domain/shared/mail-delivery.ts';
import { openSecret, sealSecret } from '../../adapters/secrets/secret-box.ts';
import type { ProviderSettings } from '../../adapters/mail/index.ts';

export type { ProviderSettings };

export function openProvider(row: ActiveMailProvider, key: Buffer): ProviderSettings {
  if (!isMailProvider(row.provider)) throw new Error(`unknown mail provider ${row.provider}`);
  const secrets: Record<string, string> = {};
  for (const [name, sealed] of Object.entries(row.sealedSecrets)) secrets[name] = openSecret(sealed, key);
  return { provider: row.provider, active: row.active, fields: { ...row.fields }, secrets };
}

export function sealSecrets(secrets: Record<string, string>, key: Buffer): Record<string, string> {
  return Object.fromEntries(Object.entries(secrets).map(([name, plain]) => [name, sealSecret(plain, key)]));
}
