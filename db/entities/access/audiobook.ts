import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';

export const Audiobook = defineEntity({
  name: 'Audiobook',
  indexes: [{ properties: ['platform', 'title'] }],
  tableName: 'audiobooks',
  ...platformOwned({
    title: p.string(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IAudiobook = InferEntity<typeof Audiobook>;
