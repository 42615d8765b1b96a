import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, mail-provider credentials): AES-256-GCM with the
 * process key `SECRETS_KEY` (32 bytes, base64).
 *
 * Sealed form: `v1.<iv base64url>.<tag base64url>.<ciphertext base64url>`, a 12-byte random IV and
 * the 16-byte GCM tag. The version prefix leaves room for a key rotation later.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * Development key used when `SECRETS_KEY` is unset: derived from a fixed label, so secrets sealed
 * in development stay readable across restarts. Never for production (the warning says so).
 */
const DEV_KEY = createHash('sha256').update('coursehub development secrets key (not for production)').digest();

export function sealSecret(plain: string, key: Buffer): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** Throws when the value was not sealed with this key or was altered. */
export function openSecret(sealed: string, key: Buffer): string {
  assertKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('not a sealed secret');
  const iv = Buffer.from(parts[1] ?? '', 'base64url');
  const tag = Buffer.from(parts[2] ?? '', 'base64url');
  const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed secret cannot be opened with this key (wrong key or altered value)');
  }
}

/**
 * The key from the `SECRETS_KEY` environment value (base64 of 32 bytes). Unset or empty: the
 * development key, with a warning through `warn`. Set but malformed: throws (a boot error).
 */
export function secretsKeyFrom(env: string | undefined, warn: (m: string) => void): Buffer {
  if (env === undefined || env.trim() === '') {
    warn('SECRETS_KEY is not set: secrets are encrypted with a development key; set SECRETS_KEY (32 bytes, base64) in production');
    return Buffer.from(DEV_KEY);
  }
  const key = Buffer.from(env.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`SECRETS_KEY must be ${KEY_BYTES} bytes encoded in base64 (got ${key.length} bytes)`);
  return key;
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`secrets key must be ${KEY_BYTES} bytes`);
}
