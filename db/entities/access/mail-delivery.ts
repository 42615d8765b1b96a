import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';

/**
 * A platform's settings for one mail delivery provider (`provider_a`, `provider_b`, `provider_c`):
 * the plain fields as a JSON document and the write-only secrets sealed with `SECRETS_KEY`
 * (adapters/secrets/secret-box.ts), one sealed string per secret name. A row exists once the
 * provider was saved; a secret, once stored, can be replaced but never cleared.
 */
export const MailDeliveryProvider = defineEntity({
  name: 'MailDeliveryProvider',
  tableName: 'mail_delivery_providers',
  uniques: [{ properties: ['platform', 'provider'] }],
  ...platformOwned({
    provider: p.string().length(16),
    active: p.boolean().default(false),
    fields: p.json<Record<string, string | null>>(),
    sealedSecrets: p.json<Record<string, string>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IMailDeliveryProvider = InferEntity<typeof MailDeliveryProvider>;
