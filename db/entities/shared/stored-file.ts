import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from '../access/platform-owned.ts';

/** An uploaded image; its bytes live in the storage folder under `<platform id>/<id>`. */
export const StoredFile = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_files',
  indexes: [{ properties: ['platform'] }],
  ...platformOwned({
    filename: p.string(),
    contentType: p.string().length(32),
    byteSize: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IStoredFile = InferEntity<typeof StoredFile>;
