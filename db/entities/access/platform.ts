import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { uuidPrimaryKey } from '../shared/base.ts';

export const Platform = defineEntity({
  name: 'Platform',
  tableName: 'platforms',
  properties: {
    ...uuidPrimaryKey(),
    subdomain: p.string().length(63).unique(),
    title: p.string(),
    adminEmail: p.string().nullable(),
    allowedDomains: p.array().default([]),
    /** Set on a sandbox twin (the test environment): the platform it was copied from; one twin each. */
    sandboxOf: () => p.manyToOne(Platform).ref().nullable().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPlatform = InferEntity<typeof Platform>;

/**
 * The access interface key. Only its SHA-256 and a short visible prefix are stored. Not under the
 * tenant filter: a request is matched to its platform by this key.
 */
export const PlatformApiKey = defineEntity({
  name: 'PlatformApiKey',
  indexes: [{ properties: ['platform'] }],
  tableName: 'platform_api_keys',
  properties: {
    ...uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).ref(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});
export type IPlatformApiKey = InferEntity<typeof PlatformApiKey>;
