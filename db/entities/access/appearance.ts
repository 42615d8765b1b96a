import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';

/**
 * The platform's look (settings and welcome section) as JSON documents validated at the edge
 * (api/configuration/schemas.ts); images are referenced by their StoredFile id. The platform
 * title itself stays on Platform.
 */
export const PlatformAppearance = defineEntity({
  name: 'PlatformAppearance',
  tableName: 'platform_appearances',
  uniques: [{ properties: ['platform'] }],
  ...platformOwned({
    settings: p.json<Record<string, unknown>>(),
    welcome: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IPlatformAppearance = InferEntity<typeof PlatformAppearance>;
