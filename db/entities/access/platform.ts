import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export const Platform = defineEntity({
  name: 'Platform',
  tableName: 'platforms',
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    subdomain: p.string().length(63).unique(),
    title: p.string(),
    adminEmail: p.string().nullable(),
    allowedDomains: p.array().default([]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPlatform = InferEntity<typeof Platform>;

/** The access interface key. Only its SHA-256 and a short visible prefix are stored. */
export const PlatformApiKey = defineEntity({
  name: 'PlatformApiKey',
  indexes: [{ properties: ['platform'] }],
  tableName: 'platform_api_keys',
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});
export type IPlatformApiKey = InferEntity<typeof PlatformApiKey>;
