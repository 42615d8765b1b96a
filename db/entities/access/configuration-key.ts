import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';

/**
 * A key of the configuration interface: scoped, optionally expiring, revocable, bound to its
 * platform. Only its SHA-256 and a short visible prefix are stored; the token is shown once.
 */
export const ConfigurationKey = defineEntity({
  name: 'ConfigurationKey',
  tableName: 'configuration_keys',
  indexes: [{ properties: ['platform'] }],
  ...platformOwned({
    name: p.string(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    scopes: p.array(),
    expiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  }),
});
export type IConfigurationKey = InferEntity<typeof ConfigurationKey>;
