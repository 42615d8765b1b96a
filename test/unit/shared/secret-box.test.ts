import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, secretsKeyFrom } from '../../../db/secret-box.ts';

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

  it('reads SECRETS_KEY, and warns and uses a stable development key when unset', () => {
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
});
