import { describe, expect, it } from 'vitest';
import { refererAllowed } from '../../../domain/access/referer.ts';

describe('Referer rule', () => {
  it('accepts a referring host on the list, ignoring case, path and port', () => {
    expect(refererAllowed('https://Shop.Example.com:8443/checkout?x=1', ['shop.example.com'])).toBe(true);
  });
  it('refuses hosts not on the list, including look-alikes', () => {
    expect(refererAllowed('https://evil.com/', ['shop.example.com'])).toBe(false);
    expect(refererAllowed('https://shop.example.com.evil.com/', ['shop.example.com'])).toBe(false);
    expect(refererAllowed('https://example.com/', ['shop.example.com'])).toBe(false);
  });
  it('a *. entry allows subdomains only', () => {
    expect(refererAllowed('https://a.example.com/', ['*.example.com'])).toBe(true);
    expect(refererAllowed('https://example.com/', ['*.example.com'])).toBe(false);
    expect(refererAllowed('https://badexample.com/', ['*.example.com'])).toBe(false);
  });
  it('refuses a Referer that is not a URL, or any Referer with an empty list', () => {
    expect(refererAllowed('not a url', ['example.com'])).toBe(false);
    expect(refererAllowed('https://example.com/', [])).toBe(false);
  });
});
