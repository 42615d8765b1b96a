import type { EntityManager } from '@mikro-orm/postgresql';
import { orderMailTags } from '../../../domain/shop/mail-tags.ts';
import { composeStatusMail, downloadLinksList, type StatusMailTemplate } from '../../../domain/shop/status-mail.ts';
import { buyerInvoiceLink, downloadLink } from '../../../domain/shared/public-links.ts';
import { Order } from '../../entities/shop/index.ts';
import type { Sql } from '../shared/pooled-transaction.ts';

export interface ComposedStatusMail {
  from: { address: string; name: string };
  subject: string;
  html: string;
}

const FALLBACK_SENDER = { address: 'no-reply@shop.invalid', name: '' };

export const INVOICE_LINK_TAG = 'LINK_DO_FAKTURY';

/** What a status mail reads of its order. */
interface StatusMailOrder {
  id: number;
  uuid: string;
  ordinalNumber: number;
  email: string;
  /** As the column's text ("49.00"). */
  total: string;
  currency: string;
  trackingNumber: string;
  deliveryMethod: string | null;
  deliveryTypeId: number | null;
  deliveryAddress: Record<string, string | undefined> | null;
  invoiceAddress: Record<string, string | undefined> | null;
}

/** What a status mail reads: its order, its sender, whether the order has electronic lines, its latest invoice (or correction) and its download codes. */
interface StatusMailReads {
  order: StatusMailOrder | null;
  sender: { address: string; name: string } | null;
  electronic: boolean;
  invoice: { id: number; subdomain: string } | null;
  /** Of contents whose file still exists, oldest first. */
  codes: { token: string; fileName: string }[];
}

/** `StatusMailReads` in one statement (a clearing sends the Paid status's mail on its outside path). */
async function statusMailReads(sql: Sql, shopId: string, senderId: number | null | undefined, orderId: number | null): Promise<StatusMailReads> {
  const [row] = await sql.execute<StatusMailReads[]>(
    `select (select jsonb_build_object('id', id, 'uuid', uuid, 'ordinalNumber', ordinal_number, 'email', email, 'total', total::text, 'currency', currency,
                    'trackingNumber', tracking_number, 'deliveryMethod', delivery_method, 'deliveryTypeId', delivery_type_id,
                    'deliveryAddress', delivery_address, 'invoiceAddress', invoice_address)
               from shop_orders where id = ? and shop_id = ?) as "order",
            (select jsonb_build_object('address', email, 'name', name) from shop_senders where id = ? and shop_id = ?) as sender,
            exists (select 1 from shop_order_items where order_id = ? and shop_id = ? and electronic) as electronic,
            (select jsonb_build_object('id', i.id, 'subdomain', s.subdomain) from shop_invoices i join shops s on s.id = i.shop_id
              where i.order_id = ? and i.shop_id = ? order by i.id desc limit 1) as invoice,
            (select coalesce(jsonb_agg(jsonb_build_object('token', token, 'fileName', file_name) order by id), '[]'::jsonb) from shop_download_codes
              where order_id = ? and shop_id = ? and content_id is not null) as codes`,
    [orderId, shopId, senderId ?? null, shopId, orderId, shopId, orderId, shopId, orderId, shopId],
  );
  return row!;
}

/**
 * A status's mail as a real status change sends it (and a test mail, rule 5): the sender, the
 * subject and the body with the order's tags, its delivery's substitution blocks, the electronic
 * substitution and its download links, and the order it was composed for (its id and buyer's
 * address; null without one, or when the shop has no order `orderId`). Without an order the order
 * tags are empty and no block or link is filled in. One statement reads all of it.
 */
export async function composeOrderStatusMail(
  sql: Sql,
  shopId: string,
  status: { name: string; senderId: number | null },
  template: StatusMailTemplate,
  orderId: number | null,
  downloadBase: string,
): Promise<ComposedStatusMail & { order: { id: number; email: string } | null }> {
  const { order, sender, electronic, invoice, codes } = await statusMailReads(sql, shopId, status.senderId, orderId);
  const from = sender ?? FALLBACK_SENDER;
  if (!order) return { from, order: null, ...composeStatusMail(template, { tags: { ...orderMailTags(null), [INVOICE_LINK_TAG]: '' }, deliveryTypeId: null, electronic: false, downloadLinksHtml: '' }) };
  const address = order.deliveryAddress ?? order.invoiceAddress ?? {};
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
  tags[INVOICE_LINK_TAG] = invoice ? buyerInvoiceLink(downloadBase, invoice.subdomain, order.uuid, Number(invoice.id)) : '';
  const links = downloadLinksList(codes.map((c) => ({ href: downloadLink(downloadBase, c.token), name: c.fileName })));
  return { from, order: { id: order.id, email: order.email }, ...composeStatusMail(template, { tags, deliveryTypeId: order.deliveryTypeId, electronic, downloadLinksHtml: links }) };
}

/** An order of the shop by its ordinal number (the `order_number` of a test mail). */
export function orderByNumber(em: EntityManager, ordinalNumber: number) {
  return em.findOne(Order, { ordinalNumber });
}
