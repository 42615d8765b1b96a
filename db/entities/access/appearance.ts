import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../../tenant.ts';
import { Platform } from './platform.ts';

/**
 * The platform's look (settings and welcome section) as JSON documents validated at the edge
 * (api/configuration/schemas.ts); images are referenced by their StoredFile id. The platform
 * title itself stays on Platform.
 */
export const PlatformAppearance = defineEntity({
  name: 'PlatformAppearance',
  tableName: 'platform_appearances',
  filters: tenantFilters,
  uniques: [{ properties: ['platform'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    settings: p.json<Record<string, unknown>>(),
    welcome: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IPlatformAppearance = InferEntity<typeof PlatformAppearance>;

/** An uploaded image; its bytes live in the storage folder under `<platform id>/<id>`. */
export const StoredFile = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_files',
  filters: tenantFilters,
  indexes: [{ properties: ['platform'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    filename: p.string(),
    contentType: p.string().length(32),
    byteSize: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IStoredFile = InferEntity<typeof StoredFile>;
