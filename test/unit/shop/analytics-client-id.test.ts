import { describe, expect, it } from 'vitest';
import { gaClientId, purchaseClientId } from '../../../domain/shop/analytics-client-id.ts';

describe('gaClientId', () => {
  it('keeps a GA client id as it is', () => {
    expect(gaClientId('1234567890.1712345678')).toBe('1234567890.1712345678');
    expect(gaClientId(' 42.1712345678 ')).toBe('42.1712345678');
  });

  it('takes the id out of a raw _ga cookie value, at any domain depth', () => {
    expect(gaClientId('GA1.1.1234567890.1712345678')).toBe('1234567890.1712345678');
    expect(gaClientId('GA1.2.987654321.1600000000')).toBe('987654321.1600000000');
  });

  it('refuses anything else', () => {
    for (const raw of ['', 'abc', '1234567890', '1234567890.', '.1712345678', '12.34.56', 'GA1.1.1234567890', 'GA2.1.1.2', 'GS1.1.1.2', '1e3.5', '-1.5', '1.5x', '1'.repeat(21) + '.1']) {
      expect(gaClientId(raw), raw).toBeNull();
    }
  });
});

describe('purchaseClientId', () => {
  it("is the buyer's id when the order has one, else one per order of the shop", () => {
    expect(purchaseClientId({ id: 7, analyticsClientId: '1.2' }, 'shop-1')).toBe('1.2');
    expect(purchaseClientId({ id: 7, analyticsClientId: null }, 'shop-1')).toBe('shop-1.7');
  });
});
