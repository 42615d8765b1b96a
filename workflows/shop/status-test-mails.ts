import { orderEffect } from '../shared/activity-proxies.ts';

export interface StatusTestMailsInput {
  shopId: string;
  /** The request's id: the workflow's and the mails' keys. */
  requestId: string;
  statusIds: number[];
  orderId: number | null;
  to: string;
  downloadBase: string;
}

/**
 * The test mails of one `test_email` or `test_emails` request, checked by the API before the start
 * (spec rules 5-6): one activity per status, each retried on its own, sent only to the tester.
 */
export async function sendOrderStatusTestMails({ requestId, statusIds, ...input }: StatusTestMailsInput): Promise<void> {
  for (const statusId of statusIds) {
    await orderEffect.sendStatusTestMail({ ...input, statusId, key: `test/${requestId}/${statusId}` });
  }
}
