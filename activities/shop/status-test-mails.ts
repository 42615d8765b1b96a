import { ApplicationFailure } from '@temporalio/activity';
import { DEFAULT_MAIL_ENDPOINTS } from '../../domain/shared/mail-endpoints.ts';
import { shopMessageId, storedTemplate } from '../../domain/shop/status-mail.ts';
import { statusMailSettings } from '../../db/repositories/shop/order-status-config.ts';
import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import { composeOrderStatusMail } from '../../db/repositories/shop/status-mails.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { sendShopMailOnce } from './shop-mail-send.ts';

export interface StatusTestMailInput {
  shopId: string;
  statusId: number;
  /** The order whose tags and download links fill the mail; null: order tags empty. */
  orderId: number | null;
  to: string;
  /** The mail's key in the shop's mail log: one per request and status. */
  key: string;
  /** The base of download links, as the request that asked for the test saw it. */
  downloadBase: string;
}

/** Test mails of status mails (spec rules 5-6): composed as a real status change would, sent only to the tester. */
export function statusTestMailActivities({ orm, now = () => new Date(), mailEndpoints = DEFAULT_MAIL_ENDPOINTS }: ActivityDeps) {
  return {
    /** Sends one status's saved mail to `to`; the order is only read (no effect, no status, no download use). */
    async sendStatusTestMail(input: StatusTestMailInput): Promise<{ status: string }> {
      const em = shopEm(orm, input.shopId);
      const status = await statusMailSettings(em, input.shopId, input.statusId);
      const template = storedTemplate(status?.email);
      if (!status || !template) throw ApplicationFailure.nonRetryable(`order status ${input.statusId} has no mail`, 'OrderNotFound');
      const { order, ...composed } = await composeOrderStatusMail(em, input.shopId, status, template, input.orderId, input.downloadBase);
      if (input.orderId !== null && !order) throw ApplicationFailure.nonRetryable(`order ${input.orderId} not found`, 'OrderNotFound');
      const { status: sent } = await sendShopMailOnce(em, mailEndpoints, now(), {
        shopId: input.shopId,
        key: input.key,
        kind: 'test_mail',
        messageId: shopMessageId(input.shopId, input.key),
        to: input.to,
        ...composed,
      });
      return { status: sent };
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<StatusTestMailActivities>(profile)` (workflows/shared/activities-of.ts). */
export type StatusTestMailActivities = ReturnType<typeof statusTestMailActivities>;
