import type { EntityManager } from '@mikro-orm/postgresql';
import { orderMailTags } from '../../../domain/shop/mail-tags.ts';
import { composeStatusMail, downloadLinksList, type StatusMailTemplate } from '../../../domain/shop/status-mail.ts';
import { buyerInvoiceLink, downloadLink } from '../../../domain/shared/public-links.ts';
import { DownloadCode, Order, OrderItem, Sender, type IOrder, type IOrderItem, type IOrderStatus } from '../../entities/shop/index.ts';

export interface ComposedStatusMail {
  from: { address: string; name: string };
  subject: string;
  html: string;
}

const FALLBACK_SENDER = { address: 'no-reply@shop.invalid', name: '' };

/** The order's download links as an HTML list (`{{LINKI_DO_POBRANIA}}`); links of deleted files are left out. */
async function downloadLinksHtml(em: EntityManager, orderId: number, downloadBase: string): Promise<string> {
  const codes = await em.find(DownloadCode, { order: orderId, content: { $ne: null } }, { orderBy: { id: 'asc' } });
  return downloadLinksList(codes.map((c) => ({ href: downloadLink(downloadBase, c.token), name: c.fileName })));
}

export const INVOICE_LINK_TAG = 'LINK_DO_FAKTURY';

/** The buyer's url of the order's latest invoice or correction (`{{LINK_DO_FAKTURY}}`); '' without one. */
async function latestInvoiceLink(em: EntityManager, order: IOrder, base: string): Promise<string> {
  const [row] = await em.execute<{ id: number; subdomain: string }[]>(
    'select i.id, s.subdomain from shop_invoices i join shops s on s.id = i.shop_id where i.order_id = ? order by i.id desc limit 1',
    [order.id],
  );
  return row ? buyerInvoiceLink(base, row.subdomain, order.uuid, Number(row.id)) : '';
}

/**
 * A status's mail as a real status change sends it (and a test mail, rule 5): the sender, the
 * subject and the body with the order's tags, its delivery's substitution blocks, the electronic
 * substitution and its download links. Without an order the order tags are empty and no block or
 * link is filled in. `items`: the order's lines when the caller has them read already.
 */
export async function composeOrderStatusMail(
  em: EntityManager,
  status: IOrderStatus,
  template: StatusMailTemplate,
  order: IOrder | null,
  downloadBase: string,
  items?: readonly Pick<IOrderItem, 'electronic'>[],
): Promise<ComposedStatusMail> {
  const sender = status.senderId ? await em.findOne(Sender, status.senderId) : null;
  const from = sender ? { address: sender.email, name: sender.name } : FALLBACK_SENDER;
  if (!order) return { from, ...composeStatusMail(template, { tags: { ...orderMailTags(null), [INVOICE_LINK_TAG]: '' }, deliveryTypeId: null, electronic: false, downloadLinksHtml: '' }) };
  const address = (order.deliveryAddress ?? order.invoiceAddress ?? {}) as Record<string, string | undefined>;
  const tags = orderMailTags({
    ordinalNumber: order.ordinalNumber,
    email: order.email,
    firstName: address.first_name ?? '',
    lastName: address.last_name ?? '',
    total: order.total,
    currency: order.currency,
    statusName: status.name,
    trackingNumber: order.trackingNumber,
    deliveryMethod: order.deliveryMethod ?? '',
  });
  tags[INVOICE_LINK_TAG] = await latestInvoiceLink(em, order, downloadBase);
  const electronic = items ? items.some((item) => item.electronic) : (await em.count(OrderItem, { order: order.id, electronic: true })) > 0;
  const links = await downloadLinksHtml(em, order.id, downloadBase);
  return { from, ...composeStatusMail(template, { tags, deliveryTypeId: order.deliveryTypeId ?? null, electronic, downloadLinksHtml: links }) };
}

/** An order of the shop by its ordinal number (the `order_number` of a test mail). */
export function orderByNumber(em: EntityManager, ordinalNumber: number) {
  return em.findOne(Order, { ordinalNumber });
}
