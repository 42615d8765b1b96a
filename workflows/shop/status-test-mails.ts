import type { StatusTestMailActivities } from '../../activities/shop/status-test-mails.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { ORDER_EFFECT } from '../shared/activity-profiles.ts';

const statusTestMails = activitiesOf<StatusTestMailActivities>(ORDER_EFFECT);

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
    await statusTestMails.sendStatusTestMail({ ...input, statusId, key: `test/${requestId}/${statusId}` });
  }
}
