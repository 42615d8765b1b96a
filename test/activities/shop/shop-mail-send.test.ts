/** sendShopMailOnce on the real database: the key is claimed before the transport is called. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MAIL_CLAIM_MS, sendShopMailOnce, type ShopMailToSend } from '../../../activities/shop/shop-mail-send.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../../domain/shared/mail-endpoints.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
const now = new Date('2026-06-10T10:00:00Z');

beforeAll(async () => {
  stack = await startTestApp('shop-mail-send');
  shop = await createTestShop(stack.app, 'mail-send');
});
afterAll(() => stack?.close());

const mail = (): ShopMailToSend => ({
  shopId: shop.id,
  key: `test/${randomUUID()}`,
  kind: 'sequence',
  messageId: `<${randomUUID()}@shop>`,
  from: { address: 'shop@example.com', name: 'Shop' },
  to: 'reader@example.com',
  subject: 'Hello',
  html: '<p>hi</p>',
});
const em = () => stack.orm.em.fork();
const rows = (key: string) => em().getConnection().execute<{ status: string; error: string | null }[]>('select status, error from shop_mails where shop_id = ? and key = ?', [shop.id, key]);
const claim = (key: string, at: Date) =>
  em().getConnection().execute(
    `insert into shop_mails (id, shop_id, key, kind, from_address, from_name, "to", subject, html, status, error, sent_at) values (?, ?, ?, 'sequence', 'a@b.c', '', 'x@y.z', 's', 'h', 'sending', null, ?)`,
    [randomUUID(), shop.id, key, at],
  );
// No relay configured: the mail is recorded only. A closed port: the transport fails at once.
const recordOnly = DEFAULT_MAIL_ENDPOINTS;
const relayDown = { ...DEFAULT_MAIL_ENDPOINTS, defaultSmtpUrl: 'smtp://127.0.0.1:1', timeoutMs: 2000 };

describe('sendShopMailOnce', () => {
  it('sends once; a repeat answers the recorded status', async () => {
    const m = mail();
    expect(await sendShopMailOnce(em(), recordOnly, now, m)).toEqual({ status: 'recorded', repeated: false });
    expect(await sendShopMailOnce(em(), recordOnly, now, m)).toEqual({ status: 'recorded', repeated: true });
    expect(await rows(m.key)).toEqual([{ status: 'recorded', error: null }]);
  });

  it('an attempt that meets the claim of one still running sends nothing and fails retryably', async () => {
    const m = mail();
    await claim(m.key, new Date(now.getTime() - 60_000));
    await expect(sendShopMailOnce(em(), recordOnly, now, m)).rejects.toMatchObject({ type: 'ShopMailInFlight', nonRetryable: false });
    expect(await rows(m.key)).toEqual([{ status: 'sending', error: null }]);
  });

  it('a claim older than the claim time belongs to a gone attempt and is taken over', async () => {
    const m = mail();
    await claim(m.key, new Date(now.getTime() - SHOP_MAIL_CLAIM_MS - 1000));
    expect(await sendShopMailOnce(em(), recordOnly, now, m)).toEqual({ status: 'recorded', repeated: false });
  });

  it('a failed send is logged failed with its error and rethrown; the retry sends', async () => {
    const m = mail();
    await expect(sendShopMailOnce(em(), relayDown, now, m)).rejects.toThrow();
    const [failed] = await rows(m.key);
    expect(failed!.status).toBe('failed');
    expect(failed!.error).toBeTruthy();
    expect(await sendShopMailOnce(em(), recordOnly, now, m)).toEqual({ status: 'recorded', repeated: false });
  });
});
