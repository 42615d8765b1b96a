import { describe, expect, it } from 'vitest';
import { ERASED, erasedAddress, erasedEmail, erasureWorkflowId, personalValues, redactJson, redactText, urlForLog } from '../../../domain/shared/personal-data.ts';

const hash = 'ab'.repeat(32);

describe('personal data rules (issue 29)', () => {
  it('names an erasure by tenant and hash, and marks kept rows with an address of the reserved .invalid domain', () => {
    expect(erasureWorkflowId({ tenant: 'shop', tenantId: 's1', emailHash: hash })).toBe(`shop/s1/customer-erasure/${hash}`);
    expect(erasureWorkflowId({ tenant: 'platform', tenantId: 'p1', emailHash: hash })).toBe(`platform/p1/participant-erasure/${hash}`);
    expect(erasedEmail(hash)).toBe('erased-abababababababab@erased.invalid');
  });

  it('keeps personal values of 3 characters or more, lower case, without markers', () => {
    expect(personalValues(['Anna', ' Nowak ', 'PL', null, 5, ERASED, 'erased-1@erased.invalid', 'anna'])).toEqual(['anna', 'nowak']);
  });

  it('redacts text in any letter case and URL-encoded', () => {
    expect(redactText('GET /orders?email=ann%40example.com for Ann@Example.com', ['ann@example.com'])).toBe(`GET /orders?email=${ERASED} for ${ERASED}`);
    expect(redactText('Dear Anna Nowak', ['anna', 'nowak'])).toBe(`Dear ${ERASED} ${ERASED}`);
  });

  it('redacts JSON strings only: keys, numbers and shape stay, an e-mail becomes the marker', () => {
    const doc = { order: { id: 5, total: '12.50', email: 'Ann@Example.com', address: { first_name: 'Anna', city: 'Kraków', note: 'call Anna' } }, list: ['nowak', 1] };
    expect(redactJson(doc, ['ann@example.com', 'anna', 'nowak'], 'erased-x@erased.invalid')).toEqual({
      order: { id: 5, total: '12.50', email: 'erased-x@erased.invalid', address: { first_name: ERASED, city: 'Kraków', note: `call ${ERASED}` } },
      list: [ERASED, 1],
    });
  });

  it('erases every address field but the country, the address field to the marker', () => {
    expect(erasedAddress({ first_name: 'Anna', country: 'PL', company: '', email: 'a@b.co' }, 'm@erased.invalid')).toEqual({ first_name: ERASED, country: 'PL', company: '', email: 'm@erased.invalid' });
    expect(erasedAddress(null, 'm')).toBeNull();
  });

  it('masks e-mail query parameters in log lines', () => {
    expect(urlForLog('/admin/v1/shops/1/customers/export?email=a%40b.co&x=1')).toBe('/admin/v1/shops/1/customers/export?email=[redacted]&x=1');
    expect(urlForLog('/admin/v1/platforms/1/emails?to=a@b.co')).toBe('/admin/v1/platforms/1/emails?to=[redacted]');
    expect(urlForLog('/api/courses')).toBe('/api/courses');
  });
});
