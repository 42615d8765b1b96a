import type { ShopWebhookEvent } from '../../../domain/shop/webhooks.ts';
import { notifyClub } from './notify-club.ts';
import { notifyShopWebhooks } from './notify-shop-webhooks.ts';
import { outsideEffect, type OrderRef } from './run-effect.ts';
import { startOrderMailSequences } from './start-mail-sequences.ts';

/**
 * What an order reaching a status runs of that status's own settings (DESIGN.md section 10,
 * "Order confirmation"), each recorded in the effect log under `ref.source`: its mail (when
 * `send_email_on_status_change` is on), the shop webhooks subscribed to `event`, the club webhook
 * when the club integration sends at this status, and the mail sequences it triggers. A status
 * change (`order_status_changed`) and placing at New (`order_placed`) run the same plan.
 *
 * `leaving` is what leaving the previous status does (a status change's access withdrawal and
 * subscription stop); it runs right after the mail because that is the order of commands the
 * committed histories of status changes hold.
 */
export function statusEffects(ref: OrderRef, statusId: number, event: ShopWebhookEvent, leaving: () => Promise<unknown>[] = () => []): Promise<unknown>[] {
  return [
    outsideEffect(ref, 'status_mail', (proxy) => proxy.sendStatusMail({ ...ref, statusId })),
    ...leaving(),
    notifyShopWebhooks(ref, event),
    notifyClub(ref, statusId),
    startOrderMailSequences(ref, statusId),
  ];
}
