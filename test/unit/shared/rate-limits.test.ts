import { describe, expect, it } from 'vitest';
import { ACCESS_RATE_LIMITS, CONFIGURATION_WRITE_LIMIT, IP_BLOCK, isMutation, tightestQuota } from '../../../domain/shared/rate-limits.ts';
import { parseConfig } from '../../../domain/shared/config.ts';
import { addressBlocked, tooManyRequests } from '../../../api/shared/rate-limits/replies.ts';

describe('the limits table', () => {
  it('is the spec\'s table', () => {
    const table = Object.fromEntries(Object.entries(ACCESS_RATE_LIMITS).map(([rule, { max, windowMs }]) => [rule, [max, windowMs]]));
    expect(table).toEqual({
      general: [100, 60_000],
      perAddress: [120, 60_000],
      mutations: [30, 60_000],
      keyless: [5, 300_000],
    });
    expect([CONFIGURATION_WRITE_LIMIT.max, CONFIGURATION_WRITE_LIMIT.windowMs]).toEqual([10, 60_000]);
    expect(IP_BLOCK.durationMs).toBe(3_600_000);
  });

  it('counts POST and DELETE as mutations', () => {
    expect(['POST', 'DELETE', 'delete'].map(isMutation)).toEqual([true, true, true]);
    expect(['GET', 'HEAD', 'OPTIONS'].map(isMutation)).toEqual([false, false, false]);
  });
});

describe('tightestQuota', () => {
  it('picks the fewest remaining requests, then the later reset', () => {
    const ip = { limit: 120, remaining: 100, resetSeconds: 50 };
    const key = { limit: 100, remaining: 80, resetSeconds: 30 };
    const mutation = { limit: 30, remaining: 80, resetSeconds: 40 };
    expect(tightestQuota([ip, key])).toBe(key);
    expect(tightestQuota([ip, key, mutation])).toBe(mutation);
    expect(tightestQuota([])).toBeUndefined();
  });
});

describe('limit replies', () => {
  it('429 names the rule and carries Retry-After and the quota headers', () => {
    const error = tooManyRequests(ACCESS_RATE_LIMITS.general, 42);
    expect(error.statusCode).toBe(429);
    expect(error.body).toEqual({ error: expect.stringContaining('100 requests per minute per API key') });
    expect(error.headers).toEqual({ 'retry-after': '42', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' });
    expect(tooManyRequests(ACCESS_RATE_LIMITS.general, 0).headers['retry-after']).toBe('1');
  });

  it('403 of a blocked address says when it ends', () => {
    const error = addressBlocked(3_599_001);
    expect(error.statusCode).toBe(403);
    expect(error.body).toEqual({ error: expect.any(String) });
    expect(error.headers).toEqual({ 'retry-after': '3600' });
  });
});

describe('RATE_LIMITS and REDIS_URL', () => {
  const base = { DATABASE_URL: 'postgres://x' };
  it('limits are on without Redis by default', () => {
    const config = parseConfig(base);
    expect(config.RATE_LIMITS).toBe('on');
    expect(config.REDIS_URL).toBeUndefined();
  });
  it('reads off and a Redis URL, and rejects other values', () => {
    expect(parseConfig({ ...base, RATE_LIMITS: 'off', REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({ RATE_LIMITS: 'off', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(() => parseConfig({ ...base, RATE_LIMITS: 'maybe' })).toThrow(/RATE_LIMITS/);
  });
});
