import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeaders, standardWebhooksKey } from '../../../activities/webhooks/signing.ts';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptDelayMs, parseRetryAfter, parseRetrySchedule, webhookEnvelope, webhookUrlProblem } from '../../../domain/shared/webhooks.ts';

describe('retry schedule', () => {
  it('reads the default schedule: 10 attempts over about three days', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(schedule).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 72_000_000, 86_400_000]);
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total).toBe(((71 * 60 + 35) * 60 + 5) * 1000);
  });

  it('reads units and bare milliseconds, and refuses anything else', () => {
    expect(parseRetrySchedule('200ms, 1s 1.5m,2h,1d,50')).toEqual([200, 1000, 90_000, 7_200_000, 86_400_000, 50]);
    expect(() => parseRetrySchedule('5 minutes')).toThrow(/not a delay/);
    expect(() => parseRetrySchedule('-5s')).toThrow(/not a delay/);
  });

  it('waits the scheduled delay with +-10 % jitter, and stops when the schedule is used up', () => {
    const schedule = [5_000, 300_000];
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: null, random: 0.5 })).toBe(5_000);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: null, random: 0 })).toBe(4_500);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: null, random: 0.999999 })).toBe(5_500);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 2, retryAfterMs: null, random: 0.5 })).toBe(300_000);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 3, retryAfterMs: null, random: 0.5 })).toBeNull();
  });

  it('honours a longer Retry-After up to 24 h, never a shorter one', () => {
    const schedule = [5_000];
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 60_000, random: 0.5 })).toBe(60_000);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 1_000, random: 0.5 })).toBe(5_000);
    expect(nextAttemptDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 7 * 86_400_000, random: 0.5 })).toBe(86_400_000);
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('webhook URLs', () => {
  it.each(['https://example.com/hook', 'http://example.com:8080/a?b=c', 'http://127.0.0.1:9/x', 'http://[::1]/'])('accepts %s (private targets are refused at delivery)', (url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });
  it.each([
    ['not a url', 'must be an absolute http(s) URL'],
    ['/relative', 'must be an absolute http(s) URL'],
    ['ftp://example.com/', 'must be an absolute http(s) URL'],
    ['javascript:alert(1)', 'must be an absolute http(s) URL'],
    ['https://user:pw@example.com/', 'must not contain a user name or password'],
  ])('refuses %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });
});

describe('envelope and signatures', () => {
  it('wraps the payload with the event id', () => {
    expect(webhookEnvelope({ id: 'e1', type: 'access_granted', payload: { participant: { id: 'p' } }, occurredAt: '2026-01-01T00:00:00.000Z' })).toEqual({
      type: 'access_granted',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { id: 'e1', participant: { id: 'p' } },
    });
  });

  it('signs the exact body (sha256=<hex>) and the Standard Webhooks content (v1,<base64>)', () => {
    const body = '{"type":"quiz_passed"}';
    const headers = signatureHeaders('my-secret', { eventId: 'evt_1', timestamp: 1767225600, body });
    expect(headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', 'my-secret').update(body).digest('hex')}`);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe('1767225600');
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', 'my-secret').update(`evt_1.1767225600.${body}`).digest('base64')}`);
  });

  it('uses the decoded key of a whsec_ secret for the Standard Webhooks signature (the Standard Webhooks test vector)', () => {
    // From the Standard Webhooks specification's reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(standardWebhooksKey(secret)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
    const headers = signatureHeaders(secret, { eventId: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(standardWebhooksKey('plain')).toEqual(Buffer.from('plain'));
  });
});
