import { describe, expect, it } from 'vitest';
import { sandboxSubdomain } from '../../../domain/access/sandbox.ts';

describe('sandboxSubdomain', () => {
  it('adds -sandbox to the platform subdomain', () => {
    expect(sandboxSubdomain('academy')).toBe('academy-sandbox');
  });

  it('stays a DNS label of at most 63 characters, without a doubled dash', () => {
    const long = `${'a'.repeat(54)}-bbbbbbbbb`;
    const twin = sandboxSubdomain(long);
    expect(twin.length).toBeLessThanOrEqual(63);
    expect(twin).toBe(`${'a'.repeat(54)}-sandbox`);
  });
});
