import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secret tokens (API keys, configuration keys) are `<kind>_<43 url-safe chars>`. Only their
 * SHA-256 is stored, with a visible prefix that identifies a key without revealing it.
 */
export type TokenKind = 'ak' | 'ck' | 'sk';

export function generateToken(kind: TokenKind): string {
  return `${kind}_${randomBytes(32).toString('base64url')}`;
}

/** Every keyed request hashes its key: the one-shot `hash` (a quarter of a Hash object's time, issue 26 item 4). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function tokenPrefix(token: string): string {
  return token.slice(0, 11);
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
