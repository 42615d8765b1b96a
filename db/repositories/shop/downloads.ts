import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderAddress } from '../../../domain/shop/order.ts';

/** A counted use of a download code: what serving its file needs. */
export interface DownloadUse {
  id: number;
  fileName: string;
  storageKey: string;
  contentType: string;
  byteSize: number;
  watermark: string;
  watermarkInterval: number;
  email: string;
  invoiceAddress: OrderAddress | null;
  deliveryAddress: OrderAddress | null;
}

/** Why a known code served nothing. */
export type DownloadRefusal = 'used_up' | 'expired' | 'deleted' | 'withdrawn';

/**
 * Counts one use of the code with this token, in one statement (never for a canceled or returned
 * order: its codes stop working): the row lock of the update makes
 * concurrent downloads wait and re-check `usages < usages_to_expire`, so the limit is never passed.
 * Null when the code is unknown, used up, expired or its content deleted (see `downloadRefusal`).
 * Public (no shop key): the token is the only secret, so the shop filter is not involved.
 */
export async function countDownloadUse(em: EntityManager, token: string): Promise<DownloadUse | null> {
  const [row] = await em.execute<Record<string, unknown>[]>(
    `with used as (
       update shop_download_codes set usages = usages + 1
       where token = ? and usages < usages_to_expire and expires_at > now() and content_id is not null
         and exists (select 1 from shop_orders o where o.id = shop_download_codes.order_id and o.internal_status = 'placed')
       returning id, order_id, content_id, file_name)
     select used.id, used.file_name, f.storage_key, f.content_type, f.byte_size, c.watermark, c.watermark_interval,
            o.email, o.invoice_address, o.delivery_address
     from used
     join shop_electronic_contents c on c.id = used.content_id
     join shop_files f on f.id = c.file_id
     join shop_orders o on o.id = used.order_id`,
    [token],
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    fileName: String(row.file_name),
    storageKey: String(row.storage_key),
    contentType: String(row.content_type),
    byteSize: Number(row.byte_size),
    watermark: String(row.watermark),
    watermarkInterval: Number(row.watermark_interval),
    email: String(row.email),
    invoiceAddress: (row.invoice_address as OrderAddress | null) ?? null,
    deliveryAddress: (row.delivery_address as OrderAddress | null) ?? null,
  };
}

/** Gives back a counted use whose file could not be served. */
export async function uncountDownloadUse(em: EntityManager, codeId: number): Promise<void> {
  await em.execute('update shop_download_codes set usages = greatest(usages - 1, 0) where id = ?', [codeId]);
}

/** Why the code with this token served nothing; null when there is no such code. */
export async function downloadRefusal(em: EntityManager, token: string): Promise<DownloadRefusal | null> {
  const [row] = await em.execute<{ deleted: boolean; used_up: boolean; withdrawn: boolean }[]>(
    `select d.content_id is null as deleted, d.usages >= d.usages_to_expire as used_up, o.internal_status <> 'placed' as withdrawn
     from shop_download_codes d join shop_orders o on o.id = d.order_id where d.token = ?`,
    [token],
  );
  if (!row) return null;
  return row.withdrawn ? 'withdrawn' : row.deleted ? 'deleted' : row.used_up ? 'used_up' : 'expired';
}

export interface ResetCode {
  id: number;
  file_name: string;
  token: string;
  usages: number;
  usages_to_expire: number;
}

/** Whether the order's code `codeId` exists and whether its content still does. */
export async function downloadCodeOfOrder(em: EntityManager, shopId: string, orderId: number, codeId: number): Promise<{ deleted: boolean } | null> {
  const [row] = await em.execute<{ deleted: boolean }[]>(
    'select content_id is null as deleted from shop_download_codes where shop_id = ? and order_id = ? and id = ?',
    [shopId, orderId, codeId],
  );
  return row ?? null;
}

/**
 * Starts the order's codes (or the one `codeId`) over: no uses, the content's current
 * `usages_to_expire`, and `days_to_expire` days from now. Codes whose content was deleted stay as
 * they are (they serve nothing) and are not answered.
 */
export async function resetDownloadCodes(em: EntityManager, shopId: string, orderId: number, codeId?: number): Promise<ResetCode[]> {
  const rows = await em.execute<ResetCode[]>(
    `update shop_download_codes d
     set usages = 0, usages_to_expire = c.usages_to_expire, expires_at = now() + make_interval(days => c.days_to_expire)
     from shop_electronic_contents c
     where c.id = d.content_id and d.shop_id = ? and d.order_id = ? ${codeId === undefined ? '' : 'and d.id = ?'}
     returning d.id, d.file_name, d.token, d.usages, d.usages_to_expire`,
    codeId === undefined ? [shopId, orderId] : [shopId, orderId, codeId],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Whether the shop has the order (another shop's order is not found). */
export async function shopHasOrder(em: EntityManager, shopId: string, orderId: number): Promise<boolean> {
  const rows = await em.execute<unknown[]>('select 1 from shop_orders where shop_id = ? and id = ?', [shopId, orderId]);
  return rows.length > 0;
}
