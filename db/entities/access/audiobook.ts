import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../../tenant.ts';
import { Platform } from './platform.ts';

export const Audiobook = defineEntity({
  name: 'Audiobook',
  indexes: [{ properties: ['platform', 'title'] }],
  tableName: 'audiobooks',
  filters: tenantFilters,
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    title: p.string(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAudiobook = InferEntity<typeof Audiobook>;
