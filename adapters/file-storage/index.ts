/**
 * Where uploaded bytes live: one interface, a folder on disk (`STORAGE_DIR`, the default) or an
 * S3-compatible bucket (`S3_*`, see s3.ts). Keys are paths chosen by the caller
 * (`shop/<shop id>/<uuid>`); nothing here knows about tenants or rows.
 */
import type { FileStorage } from './file-storage.ts';
import { localFileStorage } from './local.ts';
import { s3FileStorage } from './s3.ts';

export type { FileStorage };

/** The storage settings of the environment (domain/shared/config.ts). */
export interface FileStorageConfig {
  STORAGE_DIR: string;
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_REGION: string;
}

/** The bucket when `S3_BUCKET` is set (the config check makes the other `S3_*` required then), else the folder. */
export function fileStorageFrom(config: FileStorageConfig): FileStorage {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION } = config;
  if (!S3_BUCKET) return localFileStorage(config.STORAGE_DIR);
  if (!S3_ENDPOINT || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) throw new Error('S3_BUCKET needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return s3FileStorage({ endpoint: S3_ENDPOINT, bucket: S3_BUCKET, accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, region: S3_REGION });
}
