import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installationKey, openSecret, sealSecret, secretsKeyFrom, secretsKeyFromEnvironment, withPreviousKeys } from '../../../adapters/secrets/secret-box.ts';
import { parseConfig } from '../../../domain/shared/config.ts';

describe('secret box', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and seals the same secret differently each time', () => {
    const a = sealSecret('whsec-plain ünïcode', key);
    const b = sealSecret('whsec-plain ünïcode', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec');
    expect(openSecret(a, key)).toBe('whsec-plain ünïcode');
    expect(openSecret(b, key)).toBe('whsec-plain ünïcode');
    expect(openSecret(sealSecret('', key), key)).toBe('');
  });

  it('refuses another key and altered values', () => {
    const sealed = sealSecret('secret', key);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow(/cannot be opened/);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => openSecret(parts.join('.'), key)).toThrow(/cannot be opened/);
    expect(() => openSecret('plain text', key)).toThrow(/not a sealed secret/);
    expect(() => sealSecret('x', randomBytes(16))).toThrow(/32 bytes/);
  });

  it('reads SECRETS_KEY, and warns and uses a key of this process only when unset', () => {
    const warnings: string[] = [];
    const raw = randomBytes(32);
    expect(secretsKeyFrom(raw.toString('base64'), (m) => warnings.push(m)).equals(raw)).toBe(true);
    expect(warnings).toEqual([]);
    const dev = secretsKeyFrom(undefined, (m) => warnings.push(m));
    expect(dev.length).toBe(32);
    expect(secretsKeyFrom('', (m) => warnings.push(m)).equals(dev)).toBe(true);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/SECRETS_KEY/);
    expect(() => secretsKeyFrom(randomBytes(16).toString('base64'), () => {})).toThrow(/32 bytes/);
  });

  it('has no built-in key: the unset key is random, not the old fixed development key', () => {
    const oldDevKey = createHash('sha256').update('coursehub development secrets key (not for production)').digest();
    const unset = secretsKeyFrom(undefined, () => {});
    expect(unset.equals(oldDevKey)).toBe(false);
    expect(() => openSecret(sealSecret('x', oldDevKey), unset)).toThrow(/cannot be opened/);
  });

  it('rotates: seals with the current key, opens with the current or a previous one', () => {
    const previous = randomBytes(32);
    const older = randomBytes(32);
    const current = withPreviousKeys(randomBytes(32), [previous, older]);
    const sealedBefore = sealSecret('sealed before the rotation', previous);
    const sealedLongBefore = sealSecret('sealed two rotations ago', older);
    expect(openSecret(sealedBefore, current)).toBe('sealed before the rotation');
    expect(openSecret(sealedLongBefore, current)).toBe('sealed two rotations ago');
    const sealedNow = sealSecret('sealed now', current);
    expect(openSecret(sealedNow, current)).toBe('sealed now');
    expect(() => openSecret(sealedNow, previous)).toThrow(/cannot be opened/); // sealed with the current key only
    expect(() => openSecret(sealSecret('other', randomBytes(32)), current)).toThrow(/cannot be opened/);
  });

  describe('the key of a running api or worker', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('takes SECRETS_KEY with SECRETS_KEY_PREVIOUS for rotation', () => {
      const [current, previous, older] = [randomBytes(32), randomBytes(32), randomBytes(32)];
      const key = secretsKeyFromEnvironment(
        { SECRETS_KEY: current.toString('base64'), SECRETS_KEY_PREVIOUS: `${previous.toString('base64')}, ${older.toString('base64')}`, NODE_ENV: 'production' },
        { keyFile: path.join(dir, 'unused') },
      );
      expect(key.equals(current)).toBe(true);
      expect(openSecret(sealSecret('a', previous), key)).toBe('a');
      expect(openSecret(sealSecret('b', older), key)).toBe('b');
      expect(() => secretsKeyFromEnvironment({ SECRETS_KEY: current.toString('base64'), SECRETS_KEY_PREVIOUS: 'c2hvcnQ=' })).toThrow(/SECRETS_KEY_PREVIOUS must be 32 bytes/);
    });

    it('refuses to start in production without SECRETS_KEY (config and key alike)', () => {
      expect(() => parseConfig({ DATABASE_URL: 'postgres://x', NODE_ENV: 'production' })).toThrow(/SECRETS_KEY: is required when NODE_ENV=production/);
      expect(parseConfig({ DATABASE_URL: 'postgres://x', NODE_ENV: 'production', SECRETS_KEY: randomBytes(32).toString('base64') }).SECRETS_KEY).toBeTruthy();
      expect(parseConfig({ DATABASE_URL: 'postgres://x' }).SECRETS_KEY).toBeUndefined();
      expect(() => secretsKeyFromEnvironment({ NODE_ENV: 'production' }, { keyFile: path.join(dir, 'never') })).toThrow(/SECRETS_KEY is required/);
    });

    it('outside production without SECRETS_KEY: the installation key, generated once (0600) and read afterwards', () => {
      const keyFile = path.join(dir, 'nested', 'secrets-key');
      const logs: string[] = [];
      const first = secretsKeyFromEnvironment({}, { keyFile, log: (m) => logs.push(m) });
      expect(first.length).toBe(32);
      expect(logs).toEqual([expect.stringMatching(/generated a secrets key/)]);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64').equals(first)).toBe(true);
      const again = secretsKeyFromEnvironment({ NODE_ENV: 'development' }, { keyFile, log: (m) => logs.push(m) });
      expect(again.equals(first)).toBe(true);
      expect(logs).toHaveLength(1);
      writeFileSync(path.join(dir, 'bad-key'), 'too short\n');
      expect(() => installationKey(path.join(dir, 'bad-key'))).toThrow(/must be 32 bytes/);
    });
  });
});
