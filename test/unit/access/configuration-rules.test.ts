import { describe, expect, it } from 'vitest';
import { applyPatch, isHexColor, isWebUrl, withDefaults } from '../../../domain/access/appearance.ts';
import { keyUnusableReason, scopeAllows } from '../../../domain/access/configuration-keys.ts';

describe('configuration key scopes', () => {
  it('a route demanding a scope needs exactly that scope; scopes do not imply each other', () => {
    expect(scopeAllows(['read'], 'read')).toBe(true);
    expect(scopeAllows(['write_appearance'], 'read')).toBe(false);
    expect(scopeAllows(['write_config'], 'write_appearance')).toBe(false);
    expect(scopeAllows(['read', 'write_appearance'], 'write_appearance')).toBe(true);
  });

  it("'any' accepts every valid key", () => {
    expect(scopeAllows(['write_config'], 'any')).toBe(true);
    expect(scopeAllows([], 'any')).toBe(true);
  });
});

describe('configuration key lifecycle', () => {
  const now = new Date('2030-01-01T12:00:00Z');
  it('a revoked key is unusable at once, whatever its expiry', () => {
    expect(keyUnusableReason({ revokedAt: new Date('2030-01-01T11:59:59Z'), expiresAt: null }, now)).toBe('revoked');
  });
  it('an expired key is unusable from its expiry on', () => {
    expect(keyUnusableReason({ expiresAt: now }, now)).toBe('expired');
    expect(keyUnusableReason({ expiresAt: new Date(now.getTime() + 1) }, now)).toBeNull();
    expect(keyUnusableReason({ expiresAt: null, revokedAt: null }, now)).toBeNull();
  });
});

describe('colours and links', () => {
  it.each(['#000000', '#a1B2c3', '#FFFFFF'])('%s is a colour', (value) => expect(isHexColor(value)).toBe(true));
  it.each(['red', '#FFF', '#GGGGGG', '112233', '#1122334', ' #112233'])('%s is not', (value) => expect(isHexColor(value)).toBe(false));
  it.each(['https://facebook.com/x', 'http://example.com'])('%s is a link', (value) => expect(isWebUrl(value)).toBe(true));
  it.each(['/relative', 'javascript:alert(1)', 'ftp://example.com', 'mailto:a@b.co', 'https://'])('%s is not', (value) => expect(isWebUrl(value)).toBe(false));
});

describe('PATCH changes only the fields sent', () => {
  it('leaves fields not sent, replaces those sent, merges object members', () => {
    const stored = { a: 1, b: 'x', footer: { content: 'old', extra: true } };
    expect(applyPatch(stored, { b: 'y', c: undefined, footer: { content: 'new' } })).toEqual({ a: 1, b: 'y', footer: { content: 'new', extra: true } });
    expect(stored.footer.content).toBe('old');
  });

  it('null is a value: it clears the field', () => {
    expect(applyPatch({ a: 'x' }, { a: null })).toEqual({ a: null });
  });

  it('reads fields never saved as their defaults and drops unknown stored fields', () => {
    expect(withDefaults({ a: null, o: { x: null, y: false } }, { o: { y: true }, gone: 1 })).toEqual({ a: null, o: { x: null, y: true } });
  });
});
