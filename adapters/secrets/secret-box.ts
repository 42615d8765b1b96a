import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (webhook signing secrets, mail-provider credentials): AES-256-GCM with the
 * process key `SECRETS_KEY` (32 bytes, base64).
 *
 * Sealed form: `v1.<iv base64url>.<tag base64url>.<ciphertext base64url>`, a 12-byte random IV and
 * the 16-byte GCM tag.
 *
 * Rotation: a key may carry the keys it replaced (`SECRETS_KEY_PREVIOUS`, attached with
 * withPreviousKeys). Sealing always uses the key itself; opening tries it first, then the previous
 * ones (the GCM tag tells a wrong key apart), so values sealed before a rotation stay readable
 * until they are saved again.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Previous keys of a current key (see withPreviousKeys); the key Buffer itself stays the handle callers pass around. */
const previousKeys = new WeakMap<Buffer, readonly Buffer[]>();

export function sealSecret(plain: string, key: Buffer): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** Throws when the value was sealed with neither this key nor one of its previous keys, or was altered. */
export function openSecret(sealed: string, key: Buffer): string {
  assertKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('not a sealed secret');
  const iv = Buffer.from(parts[1] ?? '', 'base64url');
  const tag = Buffer.from(parts[2] ?? '', 'base64url');
  const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('not a sealed secret');
  for (const candidate of [key, ...(previousKeys.get(key) ?? [])]) {
    const decipher = createDecipheriv('aes-256-gcm', candidate, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      // not this key: try the next one
    }
  }
  throw new Error('sealed secret cannot be opened with this key (wrong key or altered value)');
}

/** `key`, which from now on also opens values sealed with any of `previous` (key rotation). */
export function withPreviousKeys(key: Buffer, previous: readonly Buffer[]): Buffer {
  assertKey(key);
  for (const old of previous) assertKey(old);
  previousKeys.set(key, [...previous]);
  return key;
}

/**
 * Only for code that builds the api or the activities without a key (tests, the benchmark): random
 * per process, so nothing sealed with it can be opened by anyone else, nor after a restart.
 */
let processKey: Buffer | undefined;

/**
 * The key from a `SECRETS_KEY` value (base64 of 32 bytes). Set but malformed: throws (a boot error).
 * Unset or empty: a random key that lives only in this process, with a warning through `warn`
 * (there is no built-in key; api/main.ts and worker/main.ts use secretsKeyFromEnvironment).
 */
export function secretsKeyFrom(env: string | undefined, warn: (m: string) => void, name = 'SECRETS_KEY'): Buffer {
  if (env === undefined || env.trim() === '') {
    warn(`${name} is not set: secrets are sealed with a random key that lives only in this process`);
    return (processKey ??= randomBytes(KEY_BYTES));
  }
  const key = Buffer.from(env.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${name} must be ${KEY_BYTES} bytes encoded in base64 (got ${key.length} bytes)`);
  return key;
}

/**
 * The key of a running api or worker: `SECRETS_KEY` with `SECRETS_KEY_PREVIOUS` (comma-separated,
 * newest first) attached for rotation. Unset outside production: the installation's key in
 * `keyFile` (`.data/secrets-key`, the one `npm start` generates), created when missing, so api and
 * worker started by hand agree. Unset in production: parseConfig has refused to start already;
 * this throws as well.
 */
export function secretsKeyFromEnvironment(
  env: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string; NODE_ENV?: string },
  { keyFile = path.resolve('.data', 'secrets-key'), log = () => undefined }: { keyFile?: string; log?: (m: string) => void } = {},
): Buffer {
  const previous = (env.SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .filter((value) => value.trim() !== '')
    .map((value) => secretsKeyFrom(value, () => undefined, 'SECRETS_KEY_PREVIOUS'));
  if (env.SECRETS_KEY?.trim()) return withPreviousKeys(secretsKeyFrom(env.SECRETS_KEY, () => undefined), previous);
  if (env.NODE_ENV === 'production') throw new Error('SECRETS_KEY is required when NODE_ENV=production (32 random bytes, base64)');
  return withPreviousKeys(installationKey(keyFile, log), previous);
}

/** The key saved in `file`, else a new one written there (mode 0600; of two concurrent first starts, one wins). */
export function installationKey(file: string, log: (m: string) => void = () => undefined): Buffer {
  const read = () => {
    try {
      const saved = readFileSync(file, 'utf8').trim();
      return saved ? secretsKeyFrom(saved, () => undefined, file) : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  const saved = read();
  if (saved) return saved;
  mkdirSync(path.dirname(file), { recursive: true });
  // Written whole under a temporary name, then linked: nobody ever reads a half-written key.
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(tmp, file);
    log(`generated a secrets key for this installation, saved in ${path.relative(process.cwd(), file) || file}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  const key = read();
  if (!key) throw new Error(`${file} is empty: remove it to generate a new secrets key`);
  return key;
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`secrets key must be ${KEY_BYTES} bytes`);
}
