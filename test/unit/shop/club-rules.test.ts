import { describe, expect, it } from 'vitest';
import {
  clubWebhookDecision,
  firesForAllProducts,
  secretWrite,
  URL_NOT_CLEARABLE,
  URL_REQUIRED,
  webhookHost,
  webhookHostProblem,
  webhookUrlWriteProblem,
} from '../../../domain/shop/club-rules.ts';

describe('secretWrite (rule 2)', () => {
  it('keeps on omitted or empty, clears on null, sets any other string', () => {
    expect(secretWrite(undefined)).toEqual({ kind: 'keep' });
    expect(secretWrite('')).toEqual({ kind: 'keep' });
    expect(secretWrite(null)).toEqual({ kind: 'clear' });
    expect(secretWrite('s3cret')).toEqual({ kind: 'set', value: 's3cret' });
  });
});

describe('webhookUrlWriteProblem (rules 1 and 2)', () => {
  it('requires the address when the write creates the integration', () => {
    expect(webhookUrlWriteProblem(false, undefined)).toBe(URL_REQUIRED);
    expect(webhookUrlWriteProblem(false, '')).toBe(URL_REQUIRED);
    expect(webhookUrlWriteProblem(false, 'https://club.example.com/hook?token=t')).toBeNull();
  });
  it('keeps it on an existing integration when omitted or empty, and never clears it', () => {
    expect(webhookUrlWriteProblem(true, undefined)).toBeNull();
    expect(webhookUrlWriteProblem(true, '')).toBeNull();
    expect(webhookUrlWriteProblem(true, null)).toBe(URL_NOT_CLEARABLE);
    expect(webhookUrlWriteProblem(false, null)).toBe(URL_NOT_CLEARABLE);
  });
});

describe('webhookHost', () => {
  it('shows only the host name, never the path, query or port carrying the token', () => {
    expect(webhookHost('https://club.example.com:8443/hooks/abc?token=xyz')).toBe('club.example.com');
    expect(webhookHost('not a url')).toBe('');
  });
});

describe('webhookHostProblem', () => {
  const label = (n: number) => 'a'.repeat(n);
  it('takes host names up to 253 characters with labels up to 63', () => {
    expect(webhookHostProblem(`https://${label(63)}.example.com/x`)).toBeNull();
    expect(webhookHostProblem(`https://${[label(63), label(63), label(63), label(61)].join('.')}/x`)).toBeNull();
  });
  it('refuses a longer host name or label', () => {
    expect(webhookHostProblem(`https://${label(64)}.example.com/x`)).toContain('63');
    expect(webhookHostProblem(`https://${[label(63), label(63), label(63), label(62)].join('.')}/x`)).toContain('253');
  });
});

describe('the product list (rule 5)', () => {
  it('an empty list fires for every product', () => {
    expect(firesForAllProducts([])).toBe(true);
    expect(firesForAllProducts([4])).toBe(false);
  });
});

describe('clubWebhookDecision', () => {
  const club = { active: true, orderStatusId: 2, productIds: [10, 11] };

  it('fires at the club status for an order holding a listed product, naming the matched ones', () => {
    expect(clubWebhookDecision(club, 2, [11, 12])).toEqual({ fire: true, matchedProductIds: [11] });
  });
  it('fires for any order when no product is listed', () => {
    expect(clubWebhookDecision({ ...club, productIds: [] }, 2, [99])).toEqual({ fire: true, matchedProductIds: [] });
  });
  it.each([
    ['no integration', null, 2, [10], 'no club integration'],
    ['switched off', { ...club, active: false }, 2, [10], 'switched off'],
    ['another status', club, 3, [10], 'status 2, not 3'],
    ['no listed product', club, 2, [12], 'no product of the club list'],
  ] as const)('does not fire: %s', (_name, settings, status, products, reason) => {
    const decision = clubWebhookDecision(settings, status, products);
    expect(decision.fire).toBe(false);
    expect(decision.fire === false && decision.reason).toContain(reason);
  });
});
