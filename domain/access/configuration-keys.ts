/** Scopes of configuration keys and the rules that decide whether a key may be used. */

export const CONFIGURATION_SCOPES = ['read', 'write_appearance', 'write_config'] as const;
export type ConfigurationScope = (typeof CONFIGURATION_SCOPES)[number];

/** What a route demands: one scope, or only a valid key (`GET /self`). */
export type RequiredScope = ConfigurationScope | 'any';

/** Scopes are independent: `write_appearance` does not imply `read` (spec: Scopes table). */
export function scopeAllows(granted: readonly string[], required: RequiredScope): boolean {
  return required === 'any' || granted.includes(required);
}

export interface KeyLifecycle {
  revokedAt?: Date | null;
  expiresAt?: Date | null;
}

/** Why a stored key no longer works, or null when it does. Expiry is exclusive: at `expiresAt` it is over. */
export function keyUnusableReason(key: KeyLifecycle, now: Date): 'revoked' | 'expired' | null {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}
